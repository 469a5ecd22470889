import { describe, expect, it } from 'vitest';
import { classifyBounce } from '../../src/bounces/bounce-classifier.js';
import { FeedVerificationError } from '../../src/feeds/feed-errors.js';
import type { MappingContext } from '../../src/feeds/feed-mapping.js';
import { newKumoMtaCredentials, verifyKumoMta } from '../../src/feeds/providers/kumomta/credentials.js';
import { mapKumoMta } from '../../src/feeds/providers/kumomta/mapping.js';
import { basicAuth } from '../support/feed-signers.js';
import { feedFixture, mappingChecks, UUID_V5 } from '../support/feed-mapping-checks.js';

const CONTEXT: MappingContext = {
  accountId: '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d',
  emailIdTag: 'email_id',
  scopeFrom: null,
};

function fixture(name: string): string {
  return feedFixture('kumomta', name);
}

/** The fixture's record with some fields changed (undefined removes one). */
function changed(name: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { ...(JSON.parse(fixture(name)) as Record<string, unknown>), ...fields };
}

const { mapped, refusal } = mappingChecks(mapKumoMta, CONTEXT);

describe('KumoMTA bounces', () => {
  it('when a Bounce record arrives, then it is a permanent bounce carrying the response and KumoMTA’s classification', () => {
    expect(mapped(fixture('bounce.json'))).toEqual({
      ignored: [],
      events: [
        {
          account_id: CONTEXT.accountId,
          event_id: 'kumomta:Bounce:5a9e0f62bbbc11ed940250ebf67f93bd:nobody@recipient.example.com',
          type: 'bounce',
          email: 'nobody@recipient.example.com',
          source_id: expect.stringMatching(UUID_V5),
          occurred_at: '2025-09-12T11:08:01.440Z',
          provider_message_id: '5a9e0f62bbbc11ed940250ebf67f93bd',
          scope: undefined,
          bounce: {
            type: 'permanent',
            sub_type: 'InvalidRecipient',
            status: '5.1.1',
            reply_code: 550,
            diagnostic: expect.stringContaining('does not exist'),
            provider: 'kumomta',
            remote_mta: 'gmail-smtp-in.l.google.com',
          },
        },
      ],
    });
  });

  it('when a record has no event_time (before 2025.10.06), then its Unix timestamp is when it happened', () => {
    const [event] = mapped(JSON.stringify(changed('bounce.json', { event_time: undefined }))).events;
    expect(event?.occurred_at).toBe('2025-09-12T11:08:01.000Z');
  });

  it('when KumoMTA bounced a message itself, with no receiving server, then the label says nothing and the text decides', () => {
    const body = changed('bounce.json', {
      peer_address: null,
      response: { code: 550, enhanced_code: null, content: 'rejected by policy', command: null },
    });
    expect(mapped(JSON.stringify(body)).events[0]?.bounce).toMatchObject({ type: 'undetermined', reply_code: 550 });
  });

  it('when a TransientFailure arrives, then it is a transient bounce whose id is its message’s, whatever the attempt', () => {
    const first = mapped(fixture('transient-failure.json')).events[0];
    const later = mapped(JSON.stringify(changed('transient-failure.json', { num_attempts: 4, timestamp: 1757679999 })))
      .events[0];
    expect(first?.bounce?.type).toBe('transient');
    expect(later?.event_id).toBe(first?.event_id);
  });

  it('when a TransientFailure has no receiving server (a throttle of KumoMTA’s own), then it is ignored', () => {
    const body = changed('transient-failure.json', {
      peer_address: null,
      response: { code: 451, enhanced_code: null, content: 'KumoMTA internal: ready queue throttled', command: null },
    });
    expect(mapped(JSON.stringify(body))).toEqual({ events: [], ignored: ['TransientFailure:internal'] });
  });

  it('when a record names several recipients, then each is its own event', () => {
    const { events } = mapped(fixture('bounce-multiple-recipients.json'));
    expect(events.map((event) => event.email)).toEqual(['nobody@recipient.example.com', 'noone@recipient.example.com']);
  });

  it('when an OOB record arrives, then it is a permanent bounce of the reported recipient', () => {
    const [event] = mapped(fixture('oob.json')).events;
    expect(event).toMatchObject({
      email: 'gone@recipient.example.com',
      bounce: { type: 'permanent', status: '5.1.1' },
    });
  });

  it.each([
    ['AutoReply', 'I am away until Monday and will answer your message on my return.', 'out_of_office'],
    ['ChallengeResponse', 'Your message is held until you click the link below.', 'challenge_response'],
  ])(
    'when KumoMTA classifies a reply %s, then it is a bounce with no label of failure that the classifier decides auto_reply',
    (classification, content, reason) => {
      const body = changed('oob.json', {
        bounce_classification: classification,
        response: { code: null, enhanced_code: null, content, command: null },
      });
      const [event] = mapped(JSON.stringify(body)).events;
      expect(event?.bounce).toMatchObject({ type: 'undetermined', diagnostic: content, provider: 'kumomta' });
      expect(classifyBounce(event!.bounce!)).toMatchObject({ category: 'auto_reply', reason });
    },
  );

  it('when the hook logs the email-id meta or header, then it is the source_id, and a tag the scope', () => {
    const emailId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const fromMeta = mapped(JSON.stringify(changed('bounce.json', { meta: { email_id: emailId } })));
    const fromHeader = mapped(
      JSON.stringify(changed('bounce.json', { headers: { 'X-Email-Id': emailId, 'X-Stream': 'News' } })),
      { ...CONTEXT, emailIdTag: 'x-email-id', scopeFrom: 'tag:X-Stream' },
    );
    expect(fromMeta.events[0]?.source_id).toBe(emailId);
    expect(fromHeader.events[0]).toMatchObject({ source_id: emailId, scope: 'news' });
  });
});

describe('KumoMTA feedback reports', () => {
  it('when a Feedback record arrives, then its complainant is the recipient of KumoMTA’s trace header, with the feedback type', () => {
    const { events } = mapped(fixture('feedback.json'));
    expect(events).toEqual([
      expect.objectContaining({
        event_id: 'kumomta:Feedback:af435eb7bbbc11ed940250ebf67f93bd:test@example.com',
        type: 'complaint',
        email: 'test@example.com',
        complaint: { feedback_type: 'abuse' },
      }),
    ]);
  });

  it('when the report has no trace, then Original-Rcpt-To names the complainant, else Removal-Recipient', () => {
    const record = JSON.parse(fixture('feedback.json')) as { feedback_report: Record<string, unknown> };
    const report = { ...record.feedback_report, supplemental_trace: null };
    const withRcptTo = mapped(JSON.stringify({ ...record, feedback_report: report }));
    const withRemoval = mapped(JSON.stringify({ ...record, feedback_report: { ...report, original_rcpto_to: [] } }));
    expect(withRcptTo.events.map((event) => event.email)).toEqual(['user@example.com']);
    expect(withRemoval.events.map((event) => event.email)).toEqual(['user@example.com']);
  });

  it('when a report names no complainant at all, then it is acknowledged and ignored', () => {
    const record = JSON.parse(fixture('feedback.json')) as { feedback_report: Record<string, unknown> };
    const report = { ...record.feedback_report, supplemental_trace: null, original_rcpto_to: [], extensions: {} };
    expect(mapped(JSON.stringify({ ...record, feedback_report: report }))).toEqual({
      events: [],
      ignored: ['Feedback:unattributed'],
    });
  });
});

describe('KumoMTA batches and faults', () => {
  it('when the body is a JSON array or one record per line, then every record is read, other types ignored by name', () => {
    const records = ['bounce.json', 'delivery.json', 'transient-failure.json'].map((name) => fixture(name).trim());
    const array = mapped(`[${records.join(',')}]`);
    const lines = mapped(fixture('batch.ndjson'));
    expect(array.ignored).toEqual(['Delivery']);
    expect(lines).toEqual(array);
    expect(array.events.map((event) => event.bounce?.type)).toEqual(['permanent', 'transient']);
  });

  it('when a record of a batch lacks its recipient, then the error names the record and the field', () => {
    const body = JSON.stringify([
      JSON.parse(fixture('delivery.json')),
      changed('bounce.json', { recipient: undefined }),
    ]);
    expect(refusal(body)).toBe('Not a KumoMTA log record: `[1].recipient` is required.');
  });

  it('when the body is empty, or a line is not JSON, then it is refused saying so', () => {
    expect(refusal('  ')).toBe('Not a KumoMTA log record: the body is empty.');
    expect(refusal('{"type":"Bounce"}\n{oops')).toContain('line 2 is not JSON');
  });
});

describe('KumoMTA credentials', () => {
  const { username, password, stored } = newKumoMtaCredentials();
  const request = (authorization?: string) => ({
    headers: authorization === undefined ? {} : { authorization },
    body: Buffer.from('{}'),
  });

  it('when the feed’s credentials are sent as Basic or the password as Bearer, then they are accepted, and only a digest is stored', () => {
    expect(() => verifyKumoMta(stored, request(basicAuth(username, password)))).not.toThrow();
    expect(() => verifyKumoMta(stored, request(`Bearer ${password}`))).not.toThrow();
    expect(JSON.stringify(stored)).not.toContain(password);
  });

  it('when the password, the user name or the header is wrong, then the request is refused for its credentials', () => {
    for (const authorization of [
      basicAuth(username, `${password}x`),
      basicAuth('someone', password),
      `Bearer ${password}x`,
      undefined,
    ]) {
      expect(() => verifyKumoMta(stored, request(authorization))).toThrow(FeedVerificationError);
    }
  });
});
