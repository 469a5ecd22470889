import { describe, expect, it } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { InvalidPayloadError } from '../../src/feeds/feed-errors.js';
import type { MappedPayload } from '../../src/feeds/feed-mapping.js';
import { mapSendGrid } from '../../src/feeds/providers/sendgrid/mapping.js';
import { feedFixture, UUID_V5 } from '../support/feed-mapping-checks.js';

const context = { accountId: '0190f3a4-7c2e-7b1d-9a8e-3f6b5c4d2e10', emailIdTag: 'email_id', scopeFrom: null };
// The SendGrid samples' message id, and the UUIDv5 it always stands for.
const SG_MESSAGE_ID = '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0';
const SG_MESSAGE_SOURCE_ID = 'f5d7ad77-9f1f-52ba-b785-4b73f9175f0d';
// 1513299569, the samples' Unix timestamp.
const SAMPLE_TIME = '2017-12-15T00:59:29.000Z';

/** A fixture's batch: as published in SendGrid's Event Webhook Reference. */
function fixture(name: string): any[] {
  return JSON.parse(feedFixture('sendgrid', `${name}.json`));
}

/** The mapping of `batch`, after checking that every event it made is one the event schema accepts. */
function mapped(batch: unknown): MappedPayload {
  const result = mapSendGrid(JSON.stringify(batch), {}, context);
  for (const event of result.events) expect(() => parseSuppressionEvent(event)).not.toThrow();
  return result;
}

/** A copy of a SendGrid event without one of its fields. */
function without(event: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy = { ...event };
  delete copy[field];
  return copy;
}

function invalid(text: string): string {
  try {
    mapSendGrid(text, {}, context);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPayloadError);
    return (error as Error).message;
  }
  throw new Error('the payload was accepted');
}

describe('mapSendGrid events', () => {
  it('when a hard bounce arrives, then the address is a permanent bounce with the server answer', () => {
    expect(mapped(fixture('bounce-permanent'))).toEqual({
      events: [
        {
          account_id: context.accountId,
          event_id: 'sendgrid:6g4ZI7SA-xmRDv57GoPIPw==:example@test.com',
          type: 'bounce',
          email: 'example@test.com',
          source_id: SG_MESSAGE_SOURCE_ID,
          occurred_at: SAMPLE_TIME,
          bounce: {
            type: 'permanent',
            sub_type: 'bounce',
            status: '5.0.0',
            diagnostic: '500 unknown recipient',
            provider: 'sendgrid',
          },
          provider_message_id: SG_MESSAGE_ID,
        },
      ],
      ignored: [],
    });
  });

  it('when a block arrives, then it is recorded as a transient bounce, since SendGrid keeps sending to the address', () => {
    const { events, ignored } = mapped(fixture('bounce-blocked'));
    expect(ignored).toEqual([]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'bounce',
      email: 'example@test.com',
      bounce: { type: 'transient', sub_type: 'blocked', status: '5.0.0', diagnostic: '500 unknown recipient' },
    });
  });

  it('when a bounce carries a bounce classification, then the classification is the sub-type', () => {
    const [bounce] = fixture('bounce-permanent');
    const { events } = mapped([{ ...bounce, bounce_classification: 'Invalid Address' }]);
    expect(events[0]?.bounce).toEqual({
      type: 'permanent',
      sub_type: 'Invalid Address',
      status: '5.0.0',
      diagnostic: '500 unknown recipient',
      provider: 'sendgrid',
    });
  });

  it('when a spam report arrives, then the address is a complaint', () => {
    expect(mapped(fixture('spamreport'))).toEqual({
      events: [
        {
          account_id: context.accountId,
          event_id: 'sendgrid:37nvH5QBz858KGVYCM4uOA==:example@test.com',
          type: 'complaint',
          email: 'example@test.com',
          source_id: SG_MESSAGE_SOURCE_ID,
          occurred_at: SAMPLE_TIME,
          provider_message_id: SG_MESSAGE_ID,
        },
      ],
      ignored: [],
    });
  });

  it.each(['delivered', 'dropped'])('when a %s event arrives, then nothing is produced and it is counted', (name) => {
    expect(mapped(fixture(name))).toEqual({ events: [], ignored: [name] });
  });

  it('when a batch mixes every kind, then the bounce and the spam report are events and the rest are counted in order', () => {
    const shared = {
      account_id: context.accountId,
      // The reference's all-kinds sample writes the placeholder "sg_event_id" for every event.
      event_id: 'sendgrid:sg_event_id:example@test.com',
      email: 'example@test.com',
      source_id: 'f16b3e23-22d4-57a3-bfc0-b7251ef7e9e4',
      occurred_at: SAMPLE_TIME,
      provider_message_id: 'sg_message_id',
    };
    expect(mapped(fixture('batch-every-event-kind'))).toEqual({
      events: [
        {
          ...shared,
          type: 'bounce',
          bounce: { type: 'permanent', status: '5.0.0', diagnostic: '500 unknown recipient', provider: 'sendgrid' },
        },
        { ...shared, type: 'complaint' },
      ],
      ignored: [
        'processed',
        'deferred',
        'delivered',
        'open',
        'click',
        'dropped',
        'unsubscribe',
        'group_unsubscribe',
        'group_resubscribe',
      ],
    });
  });

  it('when a batch reports events for several recipients, then each is counted or mapped on its own', () => {
    expect(mapped(fixture('open-multiple-recipients'))).toEqual({ events: [], ignored: ['open', 'open'] });
    const [bounce] = fixture('bounce-permanent');
    const second = { ...bounce, email: 'other@test.com', sg_event_id: 'second-event' };
    const { events } = mapped([bounce, second]);
    expect(events.map(({ email, event_id }) => [email, event_id])).toEqual([
      ['example@test.com', 'sendgrid:6g4ZI7SA-xmRDv57GoPIPw==:example@test.com'],
      ['other@test.com', 'sendgrid:second-event:other@test.com'],
    ]);
    expect(events.map(({ source_id }) => source_id)).toEqual([SG_MESSAGE_SOURCE_ID, SG_MESSAGE_SOURCE_ID]);
  });

  it('when the batch is empty, then there is nothing to produce and nothing to count', () => {
    expect(mapped([])).toEqual({ events: [], ignored: [] });
  });

  it('when a kind SendGrid adds later arrives, then it is counted under its name, not refused', () => {
    expect(mapped([{ event: 'a_kind_added_later', timestamp: 1513299569 }])).toEqual({
      events: [],
      ignored: ['a_kind_added_later'],
    });
  });
});

describe('mapSendGrid identifiers and dates', () => {
  it('when the email-id custom argument is a UUID, then that UUID, lower-cased, is the source id', () => {
    const [spamReport] = fixture('spamreport');
    const [bounce] = fixture('bounce-permanent');
    const emailId = '0190F3A5-1B2C-7D3E-8F40-5A6B7C8D9E0F';
    const { events } = mapped([
      { ...spamReport, email_id: emailId },
      { ...bounce, email_id: emailId },
    ]);
    expect(events.map(({ source_id }) => source_id)).toEqual([emailId.toLowerCase(), emailId.toLowerCase()]);
  });

  it('when there is no email-id custom argument, then the source id is the stable UUIDv5 of the message id', () => {
    const [spamReport] = fixture('spamreport');
    const untagged = mapped([spamReport]).events[0]?.source_id;
    expect(untagged).toMatch(UUID_V5);
    expect(untagged).toBe(SG_MESSAGE_SOURCE_ID);
    expect(mapped([{ ...spamReport, email_id: 'not-a-uuid' }]).events[0]?.source_id).toBe(untagged);
  });

  it('when an asynchronous bounce has no message id, then the source id stands on the event id', () => {
    const bounce = without(fixture('bounce-permanent')[0], 'sg_message_id');
    const { events } = mapped([bounce]);
    expect(events[0]?.provider_message_id).toBeUndefined();
    expect(events[0]?.source_id).toBe('6140e260-51a9-518a-bb23-ec5e88d2ad04');
    expect(events[0]?.source_id).not.toBe(SG_MESSAGE_SOURCE_ID);
  });

  it('when the timestamp arrives as text, then it is read as the same Unix seconds', () => {
    const [bounce] = fixture('bounce-permanent');
    expect(mapped([{ ...bounce, timestamp: '1513299569' }]).events[0]?.occurred_at).toBe(SAMPLE_TIME);
  });
});

describe('mapSendGrid refusals', () => {
  it('when the body is not an array, then it is refused', () => {
    expect(invalid('{"event":"bounce"}')).toBe(
      'Not a SendGrid Event Webhook batch: Invalid input: expected array, received object.',
    );
  });

  it('when the body is not JSON, then it is refused', () => {
    expect(invalid('event=bounce')).toBe('Not a SendGrid Event Webhook batch: the body is not JSON.');
  });

  it('when a bounce has no sg_event_id, then it is refused naming the event by its place in the batch', () => {
    const [delivered] = fixture('delivered');
    const [spamReport] = fixture('spamreport');
    const bounce = without(fixture('bounce-permanent')[0], 'sg_event_id');
    expect(invalid(JSON.stringify([delivered, spamReport, bounce]))).toBe(
      'Not a SendGrid Event Webhook batch: `[2].sg_event_id` is required.',
    );
  });

  it('when an event does not say what it is, then it is refused naming its event field', () => {
    const delivered = without(fixture('delivered')[0], 'event');
    expect(invalid(JSON.stringify([delivered]))).toBe('Not a SendGrid Event Webhook batch: `[0].event` is required.');
  });

  it('when a spam report has no email, then it is refused naming the field', () => {
    const [delivered] = fixture('delivered');
    const spamReport = without(fixture('spamreport')[0], 'email');
    expect(invalid(JSON.stringify([delivered, spamReport]))).toBe(
      'Not a SendGrid Event Webhook batch: `[1].email` is required.',
    );
  });

  it('when a bounce has no timestamp or one that is not Unix seconds, then it is refused naming the field', () => {
    const bounce = without(fixture('bounce-permanent')[0], 'timestamp');
    expect(invalid(JSON.stringify([bounce]))).toBe('Not a SendGrid Event Webhook batch: `[0].timestamp` is required.');
    expect(invalid(JSON.stringify([{ ...bounce, timestamp: 'yesterday' }]))).toBe(
      'Not a SendGrid Event Webhook batch: `[0].timestamp` must be Unix seconds.',
    );
  });

  it('when a bounce type is neither bounce nor blocked, then it is refused naming the field', () => {
    const [bounce] = fixture('bounce-permanent');
    expect(invalid(JSON.stringify([{ ...bounce, type: 'soft' }]))).toBe(
      'Not a SendGrid Event Webhook batch: `[0].type` must be bounce or blocked.',
    );
  });

  it('when a counted kind lacks the fields only bounces and spam reports need, then it is still accepted', () => {
    expect(mapped([{ event: 'open', email: 'example@test.com' }])).toEqual({ events: [], ignored: ['open'] });
  });
});
