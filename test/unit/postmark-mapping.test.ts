import { parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { classifyBounce } from '../../src/bounces/bounce-classifier.js';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { InvalidPayloadError } from '../../src/feeds/feed-errors.js';
import type { MappedPayload } from '../../src/feeds/feed-mapping.js';
import { mapPostmark } from '../../src/feeds/providers/postmark/mapping.js';
import { feedFixture, UUID_V5 } from '../support/feed-mapping-checks.js';

const CONTEXT = { accountId: '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d', emailIdTag: 'email_id', scopeFrom: null };

function fixture(name: string): string {
  return feedFixture('postmark', name);
}

/** The fixture with some fields changed, its big ID kept to the digit (a plain JSON round trip would round it). */
function changed(name: string, fields: Record<string, unknown>): string {
  return stringify({ ...(parse(fixture(name)) as object), ...fields }) as string;
}

/**
 * What the mapper makes of this body, each event checked against the event schema the workers use,
 * with the feed's id as the feed adds it.
 */
function mapped(body: string): MappedPayload {
  const result = mapPostmark(body, {}, CONTEXT);
  for (const event of result.events)
    expect(() => parseSuppressionEvent({ ...event, feed_id: `feed_${'p'.repeat(32)}` })).not.toThrow();
  return result;
}

function refusal(body: string): string {
  try {
    mapPostmark(body, {}, CONTEXT);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPayloadError);
    return (error as Error).message;
  }
  throw new Error('expected the payload to be refused');
}

describe('Postmark bounces and complaints', () => {
  it("when Postmark posts its documented hard bounce, then it is one permanent bounce of john@example.com keyed on the bounce's exact ID", () => {
    expect(mapped(fixture('bounce-hard.json'))).toEqual({
      events: [
        {
          account_id: CONTEXT.accountId,
          event_id: 'postmark:4323372036854775807:john@example.com',
          type: 'bounce',
          email: 'john@example.com',
          source_id: '883953f4-6105-42a2-a16a-77a8eac79483',
          occurred_at: '2019-11-05T16:33:54.907Z',
          provider_message_id: '883953f4-6105-42a2-a16a-77a8eac79483',
          bounce: {
            type: 'permanent',
            sub_type: 'HardBounce',
            diagnostic: 'Test bounce details',
            provider: 'postmark',
          },
        },
      ],
      ignored: [],
    });
  });

  it('when a soft bounce arrives, then it is recorded as a transient bounce with its Postmark type', () => {
    const [event] = mapped(fixture('bounce-soft.json')).events;
    expect(event?.type).toBe('bounce');
    expect(event?.bounce).toEqual({
      type: 'transient',
      sub_type: 'SoftBounce',
      diagnostic: 'Test bounce details',
      provider: 'postmark',
    });
  });

  it('when Postmark posts its documented spam complaint, then it is a complaint keyed on the complaint ID', () => {
    expect(mapped(fixture('spam-complaint.json')).events).toEqual([
      {
        account_id: CONTEXT.accountId,
        event_id: 'postmark:42:john@example.com',
        type: 'complaint',
        email: 'john@example.com',
        source_id: '00000000-0000-0000-0000-000000000000',
        occurred_at: '2019-11-05T16:33:54.907Z',
        provider_message_id: '00000000-0000-0000-0000-000000000000',
      },
    ]);
  });

  it('when a bounce record says its Type is SpamComplaint, then it is a complaint, not a bounce', () => {
    const [event] = mapped(changed('bounce-hard.json', { Type: 'SpamComplaint' })).events;
    expect(event?.type).toBe('complaint');
    expect(event?.bounce).toBeUndefined();
  });

  it.each([
    ['BadEmailAddress', 'permanent'],
    ['Transient', 'transient'],
    ['DnsError', 'transient'],
    ['Unknown', 'undetermined'],
    ['Blocked', 'undetermined'],
    ['DMARCPolicy', 'undetermined'],
    ['SomeTypeAddedLater', 'undetermined'],
  ])('when the bounce Type is %s, then it is a %s bounce', (type, expected) => {
    const [event] = mapped(changed('bounce-hard.json', { Type: type })).events;
    expect(event?.bounce?.type).toBe(expected);
    expect(event?.bounce?.sub_type).toBe(type);
  });

  it.each([
    [
      'AutoResponder',
      'smtp;I am out of the office until Monday and will answer your message on my return.',
      'out_of_office',
    ],
    ['AutoResponder', '', 'out_of_office'],
    ['ChallengeVerification', 'Please confirm your message by clicking the link below.', 'challenge_response'],
  ])(
    'when the bounce Type is %s (details %j), an automatic reply, then it is a bounce with no label of failure that the classifier decides auto_reply',
    (type, details, reason) => {
      const [event] = mapped(changed('bounce-hard.json', { Type: type, Details: details })).events;
      expect(event?.type).toBe('bounce');
      expect(event?.bounce).toEqual({
        type: 'undetermined',
        sub_type: type,
        diagnostic: details || undefined,
        provider: 'postmark',
      });
      expect(classifyBounce(event!.bounce!)).toMatchObject({ category: 'auto_reply', reason });
    },
  );

  it.each([
    'AddressChange',
    'Subscribe',
    'Unsubscribe',
    'OpenRelayTest',
    'VirusNotification',
    'SpamNotification',
    'ManuallyDeactivated',
    'Unconfirmed',
    'InboundError',
    'SMTPApiError',
    'TemplateRenderingFailed',
  ])('when the bounce Type is %s, which says nothing about the address, then it is ignored under that Type', (type) => {
    expect(mapped(changed('bounce-hard.json', { Type: type }))).toEqual({ events: [], ignored: [type] });
  });

  it('when Details is empty, then there is no diagnostic: the Description is Postmark’s fixed text for the type, not the server’s', () => {
    const [event] = mapped(changed('bounce-hard.json', { Details: '' })).events;
    expect(event?.bounce?.diagnostic).toBeUndefined();
    expect(event?.bounce?.sub_type).toBe('HardBounce');
  });
});

describe('Postmark webhooks that are not bounces', () => {
  it('when Postmark posts its documented delivery, then nothing is queued and it is ignored as Delivery', () => {
    expect(mapped(fixture('delivery.json'))).toEqual({ events: [], ignored: ['Delivery'] });
  });

  it.each(['Open', 'Click'])('when the RecordType is %s, then it is ignored under it', (type) => {
    const body = JSON.stringify({ RecordType: type, MessageID: '883953f4-6105-42a2-a16a-77a8eac79483' });
    expect(mapped(body)).toEqual({ events: [], ignored: [type] });
  });
});

describe('Postmark subscription changes (how broadcast streams report bounces)', () => {
  it('when Postmark posts its documented hard-bounce suppression, then it is one permanent bounce of the recipient', () => {
    expect(mapped(fixture('subscription-change-hard-bounce.json'))).toEqual({
      events: [
        {
          account_id: CONTEXT.accountId,
          event_id:
            'postmark:subscription-change:883953f4-6105-42a2-a16a-77a8eac79483@2020-02-01T10:53:34.416Z:bounced-address@example.com',
          type: 'bounce',
          email: 'bounced-address@example.com',
          source_id: '883953f4-6105-42a2-a16a-77a8eac79483',
          occurred_at: '2020-02-01T10:53:34.416Z',
          provider_message_id: '883953f4-6105-42a2-a16a-77a8eac79483',
          bounce: { type: 'permanent', sub_type: 'SubscriptionChange', provider: 'postmark' },
        },
      ],
      ignored: [],
    });
  });

  it('when the suppression is for a spam complaint, then it is a complaint', () => {
    const [event] = mapped(
      changed('subscription-change-hard-bounce.json', { SuppressionReason: 'SpamComplaint' }),
    ).events;
    expect(event).toMatchObject({ type: 'complaint', email: 'bounced-address@example.com' });
  });

  it('when the change is a reactivation, then it is a reactivation by Postmark of the recipient, keyed on the change', () => {
    const body = changed('subscription-change-hard-bounce.json', {
      SuppressSending: false,
      SuppressionReason: null,
      MessageID: null,
      Metadata: {},
      ChangedAt: '2026-11-25T10:00:00.000Z',
    });
    expect(mapped(body)).toEqual({
      events: [
        {
          account_id: CONTEXT.accountId,
          event_id: 'postmark:subscription-change:@2026-11-25T10:00:00.000Z:bounced-address@example.com',
          type: 'reactivation',
          email: 'bounced-address@example.com',
          source_id: expect.stringMatching(UUID_V5),
          occurred_at: '2026-11-25T10:00:00.000Z',
          reactivation: { provider: 'postmark' },
        },
      ],
      ignored: [],
    });
  });

  it.each([
    ['a manual suppression', { SuppressionReason: 'ManualSuppression', MessageID: null, Origin: 'Customer' }],
    ['an unsubscribe', { SuppressionReason: 'Unsubscribe' }],
  ])('when the change is %s, then it is acknowledged only', (_what, fields) => {
    expect(mapped(changed('subscription-change-hard-bounce.json', fields))).toEqual({
      events: [],
      ignored: ['SubscriptionChange'],
    });
  });

  it('when the change has no Recipient, then it is refused naming it', () => {
    expect(refusal(changed('subscription-change-hard-bounce.json', { Recipient: undefined }))).toBe(
      'Not a Postmark webhook payload: `Recipient` is required.',
    );
  });
});

describe('Postmark IDs beyond 2^53', () => {
  it('when two bounces have IDs that differ only past 2^53, then they get two different event ids', () => {
    const first = '4323372036854775807';
    const second = '4323372036854775808';
    // As JavaScript numbers the two IDs are one and the same: reading them with JSON.parse would merge them.
    expect(Number(first)).toBe(Number(second));

    const ids = [first, second].map((id) => mapped(fixture('bounce-hard.json').replace(first, id)).events[0]?.event_id);
    expect(ids).toEqual([`postmark:${first}:john@example.com`, `postmark:${second}:john@example.com`]);
  });
});

describe('the source id of a Postmark event', () => {
  it('when the metadata under the email-id tag is a UUID, then it is the source id', () => {
    const tagged = changed('bounce-hard.json', { Metadata: { email_id: 'D1F0A3B2-5C4E-4F6A-8B7C-9D0E1F2A3B4C' } });
    expect(mapped(tagged).events[0]?.source_id).toBe('d1f0a3b2-5c4e-4f6a-8b7c-9d0e1f2a3b4c');
  });

  it('when the tag is missing or not a UUID, then the MessageID, a UUID, is the source id', () => {
    const untagged = changed('bounce-hard.json', { Metadata: { email_id: 'welcome-42' } });
    expect(mapped(untagged).events[0]?.source_id).toBe('883953f4-6105-42a2-a16a-77a8eac79483');
    expect(mapped(changed('bounce-hard.json', { Metadata: null })).events[0]?.source_id).toBe(
      '883953f4-6105-42a2-a16a-77a8eac79483',
    );
  });

  it('when the MessageID is not a UUID, then the source id is a UUIDv5 of it, the same every time', () => {
    const body = changed('bounce-hard.json', { MessageID: 'legacy-message-1' });
    const first = mapped(body).events[0]?.source_id;
    expect(first).toMatch(UUID_V5);
    expect(mapped(body).events[0]?.source_id).toBe(first);
    expect(mapped(changed('bounce-hard.json', { MessageID: 'legacy-message-2' })).events[0]?.source_id).not.toBe(first);
  });
});

describe('payloads Postmark does not send', () => {
  it.each([
    ['text that is not JSON', 'RecordType=Bounce', 'Not a Postmark webhook payload: the body is not JSON.'],
    ['a JSON array', '[]', 'Not a Postmark webhook payload: must be a JSON object.'],
    [
      'an object without a RecordType',
      '{"Type":"HardBounce"}',
      'Not a Postmark webhook payload: `RecordType` is required.',
    ],
  ])('when the body is %s, then it is refused', (_, body, message) => {
    expect(refusal(body)).toBe(message);
  });

  it.each(['ID', 'Type', 'Email', 'BouncedAt', 'MessageID'])(
    'when a bounce has no %s, then the refusal names that field',
    (field) => {
      const body = changed('bounce-hard.json', { [field]: undefined });
      expect(refusal(body)).toBe(`Not a Postmark webhook payload: \`${field}\` is required.`);
    },
  );

  it('when BouncedAt is not a time, then the refusal says so', () => {
    expect(refusal(changed('spam-complaint.json', { BouncedAt: 'yesterday' }))).toBe(
      'Not a Postmark webhook payload: `BouncedAt` must be an ISO 8601 timestamp.',
    );
  });
});
