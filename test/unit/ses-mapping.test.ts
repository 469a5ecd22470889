import { describe, expect, it } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { InvalidPayloadError } from '../../src/feeds/feed-errors.js';
import type { MappedPayload } from '../../src/feeds/feed-mapping.js';
import { mapSes } from '../../src/feeds/providers/ses/mapping.js';
import { feedFixture, UUID_V5 } from '../support/feed-mapping-checks.js';

const context = { accountId: '0190f3a4-7c2e-7b1d-9a8e-3f6b5c4d2e10', emailIdTag: 'email_id', scopeFrom: null };
// An SNS MessageId as SNS writes it: the id of the envelope that carried the notification.
const SNS_MESSAGE_ID = 'da41e39f-ea4d-435a-b922-c6aae3915ebe';

/** The text of a fixture: an SES notification as published in the SES Developer Guide (the SNS `Message`). */
function fixture(name: string): string {
  return feedFixture('ses', `${name}.json`);
}

/** A fixture's notification, changed by `change`, as text again. */
function changed(name: string, change: (notification: any) => void): string {
  const notification = JSON.parse(fixture(name));
  change(notification);
  return JSON.stringify(notification);
}

/** The mapping of `text`, after checking that every event it made is one the event schema accepts. */
function mapped(text: string, snsMessageId: string | undefined = SNS_MESSAGE_ID): MappedPayload {
  const result = mapSes(text, { id: snsMessageId }, context);
  for (const event of result.events) expect(() => parseSuppressionEvent(event)).not.toThrow();
  return result;
}

function invalid(text: string): string {
  try {
    mapSes(text, { id: SNS_MESSAGE_ID }, context);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPayloadError);
    return (error as Error).message;
  }
  throw new Error('the payload was accepted');
}

describe('mapSes with identity notifications (notificationType)', () => {
  it('when a permanent bounce arrives, then its recipient is one permanent bounce with the DSN details', () => {
    expect(mapped(fixture('bounce-permanent'))).toEqual({
      events: [
        {
          account_id: context.accountId,
          event_id: `ses:${SNS_MESSAGE_ID}:jane@example.com`,
          type: 'bounce',
          email: 'jane@example.com',
          source_id: 'e634f487-973e-5433-8525-2f781f6481bf',
          occurred_at: '2016-01-27T14:59:38.237Z',
          bounce: {
            type: 'permanent',
            sub_type: 'General',
            status: '5.1.1',
            diagnostic: 'smtp; 550 5.1.1 <jane@example.com>... User',
            provider: 'ses',
            remote_mta: '127.0.2.0',
          },
          provider_message_id: '00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa0680-000000',
        },
      ],
      ignored: [],
    });
  });

  it('when a bounce names several recipients, then each is its own event with its own id and the same source', () => {
    const { events, ignored } = mapped(fixture('bounce-permanent-multiple-recipients'));
    expect(ignored).toEqual([]);
    expect(events).toEqual(
      ['jane@example.com', 'richard@example.com'].map((email) => ({
        account_id: context.accountId,
        event_id: `ses:${SNS_MESSAGE_ID}:${email}`,
        type: 'bounce',
        email,
        source_id: '63500843-2106-5b99-b474-f165bd224b52',
        occurred_at: '2016-01-27T14:59:38.237Z',
        bounce: { type: 'permanent', sub_type: 'General', provider: 'ses', remote_mta: '127.0.2.0' },
        provider_message_id: '00000137860315fd-34208509-5b74-41f3-95c5-22c1edc3c924-000000',
      })),
    );
  });

  it('when a transient bounce arrives, then it is recorded as a transient bounce with its sub-type', () => {
    const { events } = mapped(fixture('bounce-transient'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'bounce',
      email: 'jane@example.com',
      bounce: {
        type: 'transient',
        sub_type: 'MailboxFull',
        status: '4.2.2',
        diagnostic: 'smtp; 452 4.2.2 <jane@example.com>... Mailbox full',
      },
    });
  });

  it('when SES cannot tell what kind of bounce it is, then it is recorded as undetermined', () => {
    const text = changed('bounce-permanent', (notification) => {
      notification.bounce.bounceType = 'Undetermined';
      notification.bounce.bounceSubType = 'Undetermined';
    });
    expect(mapped(text).events[0]?.bounce).toMatchObject({ type: 'undetermined', sub_type: 'Undetermined' });
  });

  it('when a complaint with a feedback report arrives, then its recipient is a complaint with the feedback type', () => {
    expect(mapped(fixture('complaint'))).toEqual({
      events: [
        {
          account_id: context.accountId,
          event_id: `ses:${SNS_MESSAGE_ID}:richard@example.com`,
          type: 'complaint',
          email: 'richard@example.com',
          source_id: 'cc92c4db-f534-5577-994e-4a79208c65e8',
          occurred_at: '2016-01-27T14:59:38.237Z',
          complaint: { feedback_type: 'abuse' },
          provider_message_id: '000001378603177f-7a5433e7-8edb-42ae-af10-f0181f34d6ee-000000',
        },
      ],
      ignored: [],
    });
  });

  it('when a complaint comes without a feedback report, then it is still a complaint, with no feedback type', () => {
    const { events } = mapped(fixture('complaint-without-feedback-report'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'complaint', email: 'richard@example.com' });
    expect(events[0]?.complaint?.feedback_type).toBeUndefined();
  });

  it('when a delivery notification arrives, then nothing is produced and it is counted as Delivery', () => {
    expect(mapped(fixture('delivery'))).toEqual({ events: [], ignored: ['Delivery'] });
  });

  it('when SES confirms a topic subscription, then it is counted as AmazonSnsSubscriptionSucceeded', () => {
    // Written for this test in the documented form: a notificationType and a message, no mail object.
    const text = JSON.stringify({
      notificationType: 'AmazonSnsSubscriptionSucceeded',
      message: 'You have successfully subscribed your Amazon SNS topic to receive notifications from Amazon SES.',
    });
    expect(mapped(text)).toEqual({ events: [], ignored: ['AmazonSnsSubscriptionSucceeded'] });
  });
});

describe('mapSes with configuration-set event publishing (eventType)', () => {
  it('when a published Bounce arrives, then it maps as the identity notification does, dated by the bounce', () => {
    expect(mapped(fixture('event-publishing-bounce'))).toEqual({
      events: [
        {
          account_id: context.accountId,
          event_id: `ses:${SNS_MESSAGE_ID}:recipient@example.com`,
          type: 'bounce',
          email: 'recipient@example.com',
          source_id: '87c8bc93-82aa-575b-98f5-acd4d4b68f50',
          occurred_at: '2017-08-05T00:41:02.669Z',
          bounce: {
            type: 'permanent',
            sub_type: 'General',
            status: '5.1.1',
            diagnostic: 'smtp; 550 5.1.1 user unknown',
            provider: 'ses',
          },
          provider_message_id: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
        },
      ],
      ignored: [],
    });
  });

  it('when a published Complaint arrives, then its recipient is a complaint with the feedback type', () => {
    const { events, ignored } = mapped(fixture('event-publishing-complaint'));
    expect(ignored).toEqual([]);
    expect(events).toEqual([
      {
        account_id: context.accountId,
        event_id: `ses:${SNS_MESSAGE_ID}:recipient@example.com`,
        type: 'complaint',
        email: 'recipient@example.com',
        source_id: '87c8bc93-82aa-575b-98f5-acd4d4b68f50',
        occurred_at: '2017-08-05T00:41:02.669Z',
        complaint: { feedback_type: 'abuse' },
        provider_message_id: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
      },
    ]);
  });

  it.each([
    ['event-publishing-delivery', 'Delivery'],
    ['event-publishing-delivery-delay', 'DeliveryDelay'],
  ])('when the published %s sample arrives, then nothing is produced and it is counted as %s', (name, kind) => {
    expect(mapped(fixture(name))).toEqual({ events: [], ignored: [kind] });
  });

  it.each(['Send', 'Reject', 'Open', 'Click', 'Rendering Failure', 'Subscription'])(
    'when a published %s event arrives, then it is counted under its SES name and nothing is produced',
    (kind) => {
      expect(mapped(JSON.stringify({ eventType: kind }))).toEqual({ events: [], ignored: [kind] });
    },
  );

  it('when SES confirms a new event destination in plain text, then it is counted as text, not refused', () => {
    const text = 'Successfully validated SNS topic for Amazon SES event publishing.';
    expect(mapped(text)).toEqual({ events: [], ignored: ['text'] });
  });
});

describe('mapSes identifiers and dates', () => {
  it('when the message carries a UUID under the email-id tag, then that UUID, lower-cased, is the source id', () => {
    const text = changed('event-publishing-bounce', (notification) => {
      notification.mail.tags.email_id = ['0190F3A5-1B2C-7D3E-8F40-5A6B7C8D9E0F'];
    });
    expect(mapped(text).events[0]?.source_id).toBe('0190f3a5-1b2c-7d3e-8f40-5a6b7c8d9e0f');
  });

  it('when the email-id tag is missing or not a UUID, then the source id is the UUIDv5 of the SES message id', () => {
    const untagged = mapped(fixture('event-publishing-bounce')).events[0]?.source_id;
    const text = changed('event-publishing-bounce', (notification) => {
      notification.mail.tags.email_id = ['not-a-uuid'];
    });
    expect(untagged).toMatch(UUID_V5);
    expect(mapped(text).events[0]?.source_id).toBe(untagged);
  });

  it('when two notifications concern different messages, then their fallback source ids differ', () => {
    const one = mapped(fixture('bounce-permanent')).events[0]?.source_id;
    const other = mapped(fixture('bounce-permanent-multiple-recipients')).events[0]?.source_id;
    expect(one).toMatch(UUID_V5);
    expect(other).toMatch(UUID_V5);
    expect(one).not.toBe(other);
  });

  it('when SNS delivers the same notification again, then the events are the same; another SNS message, other ids', () => {
    const first = mapped(fixture('bounce-permanent'));
    expect(mapped(fixture('bounce-permanent'))).toEqual(first);
    const other = mapped(fixture('bounce-permanent'), '3f1c2b7a-5d4e-4c8b-9a0f-1e2d3c4b5a69');
    expect(other.events[0]?.event_id).toBe('ses:3f1c2b7a-5d4e-4c8b-9a0f-1e2d3c4b5a69:jane@example.com');
  });

  it('when a recipient is written as "Name <address>", then the event is for the address alone', () => {
    const text = changed('bounce-permanent', (notification) => {
      notification.bounce.bouncedRecipients[0].emailAddress = '"Jane Doe" <Jane@Example.com>';
    });
    const event = mapped(text).events[0];
    expect(event?.email).toBe('Jane@Example.com');
    expect(event?.event_id).toBe(`ses:${SNS_MESSAGE_ID}:jane@example.com`);
  });

  it('when the bounce has no timestamp of its own, then the event is dated by the mail', () => {
    const text = changed('event-publishing-bounce', (notification) => {
      delete notification.bounce.timestamp;
    });
    expect(mapped(text).events[0]?.occurred_at).toBe('2017-08-05T00:40:02.012Z');
  });
});

describe('mapSes refusals', () => {
  it('when the JSON names neither notificationType nor eventType, then it is refused naming both', () => {
    const text = changed('bounce-permanent', (notification) => {
      delete notification.notificationType;
    });
    expect(invalid(text)).toBe('Not an SES notification: `notificationType` or `eventType` is required.');
  });

  it('when a Bounce has no bouncedRecipients, then it is refused naming the field', () => {
    const text = changed('event-publishing-bounce', (notification) => {
      delete notification.bounce.bouncedRecipients;
    });
    expect(invalid(text)).toBe('Not an SES notification: `bounce.bouncedRecipients` is required.');
  });

  it('when a Complaint has no mail object, then it is refused naming the field', () => {
    const text = changed('complaint', (notification) => {
      delete notification.mail;
    });
    expect(invalid(text)).toBe('Not an SES notification: `mail` is required.');
  });

  it('when a recipient has no emailAddress, then it is refused naming the recipient', () => {
    const text = changed('bounce-permanent-multiple-recipients', (notification) => {
      delete notification.bounce.bouncedRecipients[1].emailAddress;
    });
    expect(invalid(text)).toBe('Not an SES notification: `bounce.bouncedRecipients[1].emailAddress` is required.');
  });

  it('when the bounce type is not one SES documents, then it is refused naming the field', () => {
    const text = changed('bounce-permanent', (notification) => {
      notification.bounce.bounceType = 'Soft';
    });
    expect(invalid(text)).toBe(
      'Not an SES notification: `bounce.bounceType` must be Permanent, Transient or Undetermined.',
    );
  });

  it('when a timestamp is not a date, then it is refused naming the field', () => {
    const text = changed('complaint', (notification) => {
      notification.complaint.timestamp = 'yesterday';
    });
    expect(invalid(text)).toBe('Not an SES notification: `complaint.timestamp` must be an ISO 8601 timestamp.');
  });

  it('when the JSON is not an object, then it is refused', () => {
    expect(invalid('[]')).toBe('Not an SES notification: Invalid input: expected object, received array.');
  });

  it('when the text starts as JSON but does not parse, then it is refused rather than counted as text', () => {
    expect(invalid('{"notificationType":"Bounce",')).toBe('Not an SES notification: the message is not valid JSON.');
  });

  it('when a bounce is mapped without the SNS MessageId, then it fails as a fault of the caller, not of SES', () => {
    const attempt = () => mapSes(fixture('bounce-permanent'), {}, context);
    expect(attempt).toThrow('MessageId');
    expect(attempt).not.toThrow(InvalidPayloadError);
  });
});
