import { describe, expect, it } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { InvalidPayloadError } from '../../src/feeds/feed-errors.js';
import type { MappedPayload } from '../../src/feeds/feed-mapping.js';
import { mapMailgun } from '../../src/feeds/providers/mailgun/mapping.js';
import { feedFixture, UUID_V5 } from '../support/feed-mapping-checks.js';

const CONTEXT = { accountId: '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d', emailIdTag: 'email_id', scopeFrom: null };

function fixture(name: string): string {
  return feedFixture('mailgun', name);
}

/** The fixture with some fields of its `event-data` changed (undefined removes one). */
function changed(name: string, fields: Record<string, unknown>): string {
  const payload = JSON.parse(fixture(name)) as { 'event-data': Record<string, unknown> };
  return JSON.stringify({ ...payload, 'event-data': { ...payload['event-data'], ...fields } });
}

/** What the mapper makes of this body, each event checked against the event schema the workers use. */
function mapped(body: string): MappedPayload {
  const result = mapMailgun(body, {}, CONTEXT);
  for (const event of result.events) expect(() => parseSuppressionEvent(event)).not.toThrow();
  return result;
}

function refusal(body: string): string {
  try {
    mapMailgun(body, {}, CONTEXT);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPayloadError);
    return (error as Error).message;
  }
  throw new Error('expected the payload to be refused');
}

describe('Mailgun failures and complaints', () => {
  it('when Mailgun posts its documented permanent failure, then it is a permanent bounce with the enhanced status code', () => {
    const { events, ignored } = mapped(fixture('failed-permanent.json'));
    expect(ignored).toEqual([]);
    expect(events).toEqual([
      {
        account_id: CONTEXT.accountId,
        event_id: 'mailgun:2kFItcrLQuKTdp-Ia2Xr7w:badrecipient@sample.mailgun.com',
        type: 'bounce',
        email: 'badrecipient@sample.mailgun.com',
        source_id: expect.stringMatching(UUID_V5),
        occurred_at: '2026-02-12T17:42:55.592Z',
        provider_message_id: '20260212174255.58bbb7ce85a423e5@mailgun.com',
        bounce: {
          type: 'permanent',
          sub_type: 'bounce',
          status: '5.5.0',
          reply_code: 550,
          diagnostic:
            '5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [BN3PEPF0000B36D.namprd21.prod.outlook.com 2026-02-12T17:42:55.527Z 08DE657A58651558]',
          provider: 'mailgun',
          remote_mta: '802679870.pamx1.hotmail.com',
        },
      },
    ]);
  });

  it('when Mailgun posts its documented temporary failure, then it is a transient bounce whose status is the SMTP code', () => {
    const [event] = mapped(fixture('failed-temporary.json')).events;
    expect(event).toMatchObject({
      event_id: 'mailgun:YusK9KhoTwe2C00iRxsEqQ:tempfailrecipient@sample.mailgun.com',
      email: 'tempfailrecipient@sample.mailgun.com',
      occurred_at: '2026-02-12T18:01:07.428Z',
      bounce: {
        type: 'transient',
        sub_type: 'generic',
        status: '421',
        diagnostic:
          'Your IP (161.38.194.10) is temporary blacklisted by an anti-troyan rule, retry later and/or visit http://sample.mailgun.com/',
      },
    });
  });

  it('when Mailgun posts its documented complaint, then it is a complaint of recipient@sample.mailgun.com', () => {
    expect(mapped(fixture('complained.json')).events).toEqual([
      {
        account_id: CONTEXT.accountId,
        event_id: 'mailgun:rIVDlyk8SY-mJauQoYmNFA:recipient@sample.mailgun.com',
        type: 'complaint',
        email: 'recipient@sample.mailgun.com',
        source_id: expect.stringMatching(UUID_V5),
        occurred_at: '2026-02-12T18:26:12.268Z',
        provider_message_id: '20260212182531.0d5ed3254c319957@sample.mailgun.com',
      },
    ]);
  });

  it('when a failure has no severity, or one Mailgun may add later, then it is an undetermined bounce', () => {
    expect(mapped(changed('failed-permanent.json', { severity: undefined })).events[0]?.bounce?.type).toBe(
      'undetermined',
    );
    expect(mapped(changed('failed-permanent.json', { severity: 'fatal' })).events[0]?.bounce?.type).toBe(
      'undetermined',
    );
  });

  it("when a dropped message has Mailgun's own code and a description, then both are kept", () => {
    const deliveryStatus = {
      'attempt-no': 1,
      message: '',
      code: 605,
      description: 'Not delivering to previously bounced address',
      'session-seconds': 0.0,
    };
    const [event] = mapped(
      changed('failed-permanent.json', { reason: 'suppress-bounce', 'delivery-status': deliveryStatus }),
    ).events;
    expect(event?.bounce).toEqual({
      type: 'permanent',
      sub_type: 'suppress-bounce',
      status: '605',
      reply_code: 605,
      diagnostic: 'Not delivering to previously bounced address',
      provider: 'mailgun',
    });
  });

  it('when a delayed bounce has both a message and a description, then the diagnostic carries both', () => {
    const deliveryStatus = {
      'bounce-code': '5.1.1',
      message: 'smtp; 550-5.1.1 The email account that you tried to reach does not exist.',
      code: 550,
      description:
        "I'm sorry to have to inform you that your message could not be delivered to one or more recipients.",
      'enhanced-code': '5.1.1',
    };
    const [event] = mapped(changed('failed-permanent.json', { 'delivery-status': deliveryStatus })).events;
    expect(event?.bounce?.status).toBe('5.1.1');
    expect(event?.bounce?.diagnostic).toBe(
      "smtp; 550-5.1.1 The email account that you tried to reach does not exist.; I'm sorry to have to inform you that your message could not be delivered to one or more recipients.",
    );
  });

  it('when the recipient is written with a name, then the event is for the bare address', () => {
    const body = changed('failed-permanent.json', { recipient: 'Bad Recipient <BadRecipient@Sample.Mailgun.com>' });
    const [event] = mapped(body).events;
    expect(event?.email).toBe('BadRecipient@Sample.Mailgun.com');
    expect(event?.event_id).toBe('mailgun:2kFItcrLQuKTdp-Ia2Xr7w:badrecipient@sample.mailgun.com');
  });
});

describe('Mailgun events that are not failures or complaints', () => {
  it('when Mailgun posts its documented delivery, then nothing is queued and it is ignored as delivered', () => {
    expect(mapped(fixture('delivered.json'))).toEqual({ events: [], ignored: ['delivered'] });
  });

  it.each(['accepted', 'rejected', 'opened', 'clicked', 'unsubscribed', 'stored'])(
    'when the event is %s, then it is ignored under its name',
    (name) => {
      expect(mapped(changed('delivered.json', { event: name }))).toEqual({ events: [], ignored: [name] });
    },
  );
});

describe('the source id of a Mailgun event', () => {
  it('when the user variable under the email-id tag is a UUID, then it is the source id', () => {
    const body = changed('failed-permanent.json', {
      'user-variables': { email_id: '4F9A1C2E-7B3D-4E5F-8A6B-1C2D3E4F5A6B' },
    });
    expect(mapped(body).events[0]?.source_id).toBe('4f9a1c2e-7b3d-4e5f-8a6b-1c2d3e4f5a6b');
  });

  it('when there is no such variable, then the source id is a UUIDv5 of the Message-ID, the same for every event of that message', () => {
    const failed = mapped(fixture('failed-permanent.json')).events[0]?.source_id;
    const sameMessage = changed('complained.json', {
      message: { headers: { 'message-id': '20260212174255.58bbb7ce85a423e5@mailgun.com' } },
    });
    expect(failed).toMatch(UUID_V5);
    expect(mapped(sameMessage).events[0]?.source_id).toBe(failed);
    expect(mapped(fixture('complained.json')).events[0]?.source_id).not.toBe(failed);
  });

  it('when the Message-ID is missing, then the source id comes from the event id and there is no provider message id', () => {
    const body = changed('failed-permanent.json', { message: { headers: {} } });
    const [event] = mapped(body).events;
    expect(event?.source_id).toMatch(UUID_V5);
    expect(event?.source_id).not.toBe(mapped(fixture('failed-permanent.json')).events[0]?.source_id);
    expect(mapped(body).events[0]?.source_id).toBe(event?.source_id);
    expect(event?.provider_message_id).toBeUndefined();
  });
});

describe('payloads Mailgun does not send', () => {
  it.each([
    ['text that is not JSON', 'event=failed', 'Not a Mailgun webhook payload: the body is not JSON.'],
    ['a JSON array', '[]', 'Not a Mailgun webhook payload: must be a JSON object.'],
    ['an object without event-data', '{"signature":{}}', 'Not a Mailgun webhook payload: `event-data` is required.'],
  ])('when the body is %s, then it is refused', (_, body, message) => {
    expect(refusal(body)).toBe(message);
  });

  it.each(['id', 'recipient', 'timestamp'])('when a failure has no %s, then the refusal names it', (field) => {
    expect(refusal(changed('failed-permanent.json', { [field]: undefined }))).toBe(
      `Not a Mailgun webhook payload: \`event-data.${field}\` is required.`,
    );
  });

  it('when the timestamp is not Unix seconds, then the refusal says so', () => {
    expect(refusal(changed('complained.json', { timestamp: 'soon' }))).toBe(
      'Not a Mailgun webhook payload: `event-data.timestamp` must be Unix seconds.',
    );
  });
});
