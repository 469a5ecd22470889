import { describe, expect, it } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { InvalidPayloadError } from '../../src/feeds/feed-errors.js';
import type { Delivery, MappedPayload } from '../../src/feeds/feed-mapping.js';
import { mapResend } from '../../src/feeds/providers/resend/mapping.js';
import { feedFixture, UUID_V5 } from '../support/feed-mapping-checks.js';

const CONTEXT = { accountId: '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d', emailIdTag: 'email_id', scopeFrom: null };
const DELIVERY: Delivery = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek' };
const EMAIL_ID = '56761188-7520-42d8-8898-ff6fc54ce618';

function fixture(name: string): string {
  return feedFixture('resend', name);
}

/** The fixture with some fields of its `data` (or, under `top`, of the event itself) changed; undefined removes one. */
function changed(name: string, data: Record<string, unknown>, top: Record<string, unknown> = {}): string {
  const payload = JSON.parse(fixture(name)) as { data: Record<string, unknown> };
  return JSON.stringify({ ...payload, ...top, data: { ...payload.data, ...data } });
}

/** What the mapper makes of this body, each event checked against the event schema the workers use. */
function mapped(body: string, delivery = DELIVERY): MappedPayload {
  const result = mapResend(body, delivery, CONTEXT);
  for (const event of result.events) expect(() => parseSuppressionEvent(event)).not.toThrow();
  return result;
}

function refusal(body: string, delivery = DELIVERY): string {
  try {
    mapResend(body, delivery, CONTEXT);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPayloadError);
    return (error as Error).message;
  }
  throw new Error('expected the payload to be refused');
}

const SUPPRESSED =
  "The recipient's email address is on the suppression list because it has a recent history of producing hard bounces.";

describe('Resend bounces and complaints', () => {
  it('when Resend posts its documented bounce (an address on its suppression list), then it is a permanent bounce of delivered@resend.dev keyed on the Svix message id', () => {
    expect(mapped(fixture('bounced-suppressed.json'))).toEqual({
      events: [
        {
          account_id: CONTEXT.accountId,
          event_id: 'resend:msg_p5jXN8AQM9LWM0D4loKWxJek:delivered@resend.dev',
          type: 'bounce',
          email: 'delivered@resend.dev',
          source_id: EMAIL_ID,
          occurred_at: '2026-11-22T23:41:12.126Z',
          provider_message_id: EMAIL_ID,
          bounce: { type: 'permanent', sub_type: 'Suppressed', diagnostic: SUPPRESSED, provider: 'resend' },
        },
      ],
      ignored: [],
    });
  });

  it('when a transient bounce arrives, then it is recorded as a transient bounce', () => {
    const [event] = mapped(fixture('bounced-transient.json')).events;
    expect(event?.bounce).toMatchObject({ type: 'transient', sub_type: 'MailboxFull' });
  });

  it.each([
    ['Undetermined', { type: 'Undetermined', subType: 'Undetermined', message: 'No reason given.' }],
    ['a type Resend may add later', { type: 'Deferred', subType: 'General', message: 'Later.' }],
    ['no bounce details at all', undefined],
  ])('when the bounce type is %s, then it is an undetermined bounce', (_, bounce) => {
    const [event] = mapped(changed('bounced-permanent.json', { bounce })).events;
    expect(event?.type).toBe('bounce');
    expect(event?.bounce?.type).toBe('undetermined');
  });

  it('when an email had two recipients and the bounce names one, then only that one bounced and the other is acknowledged', () => {
    const { events, ignored } = mapped(fixture('bounced-multiple-recipients.json'));
    expect(events.map((event) => [event.email, event.event_id, event.source_id])).toEqual([
      ['bounced@resend.dev', 'resend:msg_p5jXN8AQM9LWM0D4loKWxJek:bounced@resend.dev', EMAIL_ID],
    ]);
    expect(events[0]?.bounce).toMatchObject({ type: 'permanent', sub_type: 'General' });
    expect(ignored).toEqual(['email.bounced:other-recipient']);
  });

  it('when an email had two recipients and the bounce names neither, then each is a bounce pinned on no one', () => {
    const { events, ignored } = mapped(fixture('bounced-unnamed-recipient.json'));
    expect(events.map((event) => [event.email, event.bounce?.sub_type])).toEqual([
      ['delivered@resend.dev', 'RecipientUnidentified'],
      ['bounced@resend.dev', 'RecipientUnidentified'],
    ]);
    expect(ignored).toEqual([]);
  });

  it('when an email had one recipient, then the bounce is that recipient’s whatever its text names', () => {
    const [event] = mapped(changed('bounced-permanent.json', { to: ['someone@example.org'] })).events;
    expect(event).toMatchObject({ email: 'someone@example.org', bounce: { sub_type: 'General' } });
  });

  it('when the same address is named twice, then it is one event', () => {
    const body = changed('bounced-permanent.json', { to: ['delivered@resend.dev', 'Delivered@Resend.dev'] });
    expect(mapped(body).events).toHaveLength(1);
  });

  it('when `to` is a single address rather than a list, then it is that one recipient', () => {
    const [event] = mapped(changed('bounced-permanent.json', { to: 'delivered@resend.dev' })).events;
    expect(event?.email).toBe('delivered@resend.dev');
  });

  it('when a recipient is written with a name, then the event is for the bare address', () => {
    const [event] = mapped(changed('bounced-permanent.json', { to: ['Delivered <delivered@resend.dev>'] })).events;
    expect(event?.email).toBe('delivered@resend.dev');
  });

  it('when Resend posts its documented complaint, then it is a complaint of delivered@resend.dev', () => {
    expect(mapped(fixture('complained.json')).events).toEqual([
      {
        account_id: CONTEXT.accountId,
        event_id: 'resend:msg_p5jXN8AQM9LWM0D4loKWxJek:delivered@resend.dev',
        type: 'complaint',
        email: 'delivered@resend.dev',
        source_id: EMAIL_ID,
        occurred_at: '2026-02-22T23:41:12.126Z',
        provider_message_id: EMAIL_ID,
      },
    ]);
  });

  it('when the event has no created_at of its own, then the email’s created_at is when it happened', () => {
    const body = changed('complained.json', {}, { created_at: undefined });
    expect(mapped(body).events[0]?.occurred_at).toBe('2026-02-22T23:41:11.894Z');
  });
});

describe('Resend events that are not bounces or complaints', () => {
  it('when Resend posts its documented delivery, then nothing is queued and it is ignored as email.delivered', () => {
    expect(mapped(fixture('delivered.json'))).toEqual({ events: [], ignored: ['email.delivered'] });
  });

  it.each([
    'email.sent',
    'email.delivery_delayed',
    'email.opened',
    'email.clicked',
    'email.scheduled',
    'email.received',
    'contact.created',
    'domain.updated',
  ])('when the event is %s, then it is ignored under its type', (type) => {
    expect(mapped(changed('delivered.json', {}, { type }))).toEqual({ events: [], ignored: [type] });
  });

  it('when Resend could not send at all (email.failed), then it is ignored: no mail server judged the address', () => {
    const body = changed('delivered.json', { failed: { reason: 'reached_daily_quota' } }, { type: 'email.failed' });
    expect(mapped(body)).toEqual({ events: [], ignored: ['email.failed'] });
  });

  it('when Resend held an email back for its own suppression list (email.suppressed), then it is ignored: the bounce or complaint behind it came on its own', () => {
    const suppressed = { message: SUPPRESSED, type: 'OnAccountSuppressionList' };
    const body = changed('delivered.json', { suppressed }, { type: 'email.suppressed' });
    expect(mapped(body)).toEqual({ events: [], ignored: ['email.suppressed'] });
  });
});

describe('the source id of a Resend event', () => {
  it('when the tags object has a UUID under the email-id tag, then it is the source id', () => {
    const body = changed('complained.json', { tags: { email_id: '7C0E9B1A-2D3F-4A5B-9C8D-7E6F5A4B3C2D' } });
    expect(mapped(body).events[0]?.source_id).toBe('7c0e9b1a-2d3f-4a5b-9c8d-7e6f5a4b3c2d');
  });

  it('when the tags are a list of name and value, then the email-id tag is found in it', () => {
    const tags = [
      { name: 'category', value: 'confirm_email' },
      { name: 'email_id', value: '7c0e9b1a-2d3f-4a5b-9c8d-7e6f5a4b3c2d' },
    ];
    expect(mapped(changed('complained.json', { tags })).events[0]?.source_id).toBe(
      '7c0e9b1a-2d3f-4a5b-9c8d-7e6f5a4b3c2d',
    );
  });

  it('when no tag holds a UUID, then the email id, a UUID, is the source id', () => {
    expect(mapped(changed('complained.json', { tags: { email_id: 'welcome' } })).events[0]?.source_id).toBe(EMAIL_ID);
  });

  it('when the email id is not a UUID, then the source id is a UUIDv5 of it, the same every time', () => {
    const body = changed('complained.json', { email_id: 're_legacy_1' });
    const first = mapped(body).events[0]?.source_id;
    expect(first).toMatch(UUID_V5);
    expect(mapped(body).events[0]?.source_id).toBe(first);
    expect(mapped(changed('complained.json', { email_id: 're_legacy_2' })).events[0]?.source_id).not.toBe(first);
  });
});

describe('payloads Resend does not send', () => {
  it.each([
    ['text that is not JSON', 'type=email.bounced', 'Not a Resend webhook payload: the body is not JSON.'],
    ['a JSON array', '[]', 'Not a Resend webhook payload: must be a JSON object.'],
    ['an object without a type', '{"data":{}}', 'Not a Resend webhook payload: `type` is required.'],
  ])('when the body is %s, then it is refused', (_, body, message) => {
    expect(refusal(body)).toBe(message);
  });

  it.each(['email_id', 'to'])('when a bounce has no data.%s, then the refusal names it', (field) => {
    expect(refusal(changed('bounced-permanent.json', { [field]: undefined }))).toBe(
      `Not a Resend webhook payload: \`data.${field}\` is required.`,
    );
  });

  it('when a bounce names no recipient, then it is refused', () => {
    expect(refusal(changed('bounced-permanent.json', { to: [] }))).toBe(
      'Not a Resend webhook payload: `data.to` must name at least one recipient.',
    );
  });

  it('when neither the event nor the email has a created_at, then the refusal names it', () => {
    expect(refusal(changed('bounced-permanent.json', { created_at: undefined }, { created_at: undefined }))).toBe(
      'Not a Resend webhook payload: `created_at` must be an ISO 8601 timestamp.',
    );
  });

  it('when the delivery has no Svix message id, then a bounce is refused, as it could not be told from its retries', () => {
    expect(refusal(fixture('bounced-permanent.json'), {})).toBe(
      'Not a Resend webhook payload: the `svix-id` header is required.',
    );
  });
});
