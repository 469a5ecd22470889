import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNCE_ACTIONS } from '../../src/domain/bounce-categories.js';
import { decideEvent } from '../../src/events/event-decision.js';
import { InvalidEventError, parseSuppressionEvent, type SuppressionEventInput } from '../../src/events/event-schema.js';
import { eventJobId } from '../../src/events/job-id.js';

const ACCOUNT = '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d';
const SOURCE = '3f1c2b4a-1111-4222-8333-944455556666';

function event(overrides: Partial<SuppressionEventInput> = {}): SuppressionEventInput {
  return {
    account_id: ACCOUNT,
    event_id: 'evt-1',
    type: 'bounce',
    email: 'Someone@Example.com',
    source_id: SOURCE,
    occurred_at: '2026-10-06T23:47:56.678Z',
    bounce: { type: 'permanent', sub_type: 'general', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' },
    ...overrides,
  };
}

function reasonFor(input: unknown): string {
  try {
    parseSuppressionEvent(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEventError);
    return (error as Error).message;
  }
  throw new Error('expected the event to be refused');
}

describe('the event format', () => {
  it('when an event is valid, then its address is normalised and unknown fields are dropped', () => {
    const parsed = parseSuppressionEvent({ ...event(), extra: 'ignored', email: '  Someone@Example.COM ' });
    expect(parsed.email).toBe('someone@example.com');
    expect(parsed).not.toHaveProperty('extra');
    expect(parsed.bounce?.type).toBe('permanent');
  });

  it('when ids come in capitals, then they are lower-cased', () => {
    const parsed = parseSuppressionEvent(event({ account_id: ACCOUNT.toUpperCase(), source_id: SOURCE.toUpperCase() }));
    expect(parsed.account_id).toBe(ACCOUNT);
    expect(parsed.source_id).toBe(SOURCE);
  });

  it('when a bounce has no bounce details, then it is refused', () => {
    expect(reasonFor(event({ bounce: undefined }))).toBe('invalid event: bounce is required when type is bounce');
  });

  it('when a complaint has no complaint details, then it is accepted', () => {
    expect(parseSuppressionEvent(event({ type: 'complaint', bounce: undefined })).type).toBe('complaint');
  });

  it('when several fields are wrong, then the reason names each of them', () => {
    const reason = reasonFor({ type: 'bounce', email: 'nope', event_id: 'x'.repeat(256), occurred_at: 'yesterday' });
    for (const part of [
      'account_id is required',
      'event_id must be at most 255 characters',
      'email is not a valid email address',
      'source_id is required',
      'occurred_at must be an ISO 8601 timestamp',
      'bounce is required when type is bounce',
    ]) {
      expect(reason).toContain(part);
    }
  });

  it.each([null, 'text', 42, []])('when the data is %j, then it is refused as not an object', (input) => {
    expect(reasonFor(input)).toBe('invalid event: the event must be a JSON object');
  });

  it('when the bounce type is unknown, then it is refused', () => {
    expect(reasonFor(event({ bounce: { type: 'soft' as 'permanent' } }))).toContain(
      'bounce.type must be one of permanent, transient, undetermined',
    );
  });

  it('when the diagnostic is very long, then it is kept, cut to 2000 characters', () => {
    const parsed = parseSuppressionEvent(event({ bounce: { type: 'permanent', diagnostic: 'x'.repeat(5000) } }));
    expect(parsed.bounce?.diagnostic).toHaveLength(2000);
  });

  it('when occurred_at carries an offset, then it is accepted', () => {
    expect(parseSuppressionEvent(event({ occurred_at: '2026-10-06T23:47:56+02:00' })).occurred_at).toBe(
      '2026-10-06T23:47:56+02:00',
    );
  });
});

describe('the rules, under the default bounce actions', () => {
  it.each([
    ['a complaint', event({ type: 'complaint', bounce: undefined }), 'complaint'],
    [
      'an abuse complaint',
      event({ type: 'complaint', bounce: undefined, complaint: { feedback_type: 'abuse' } }),
      'complaint',
    ],
    [
      'a not-spam report',
      event({ type: 'complaint', bounce: undefined, complaint: { feedback_type: 'not-spam' } }),
      null,
    ],
    [
      'a DMARC failure report',
      event({ type: 'complaint', bounce: undefined, complaint: { feedback_type: 'auth-failure' } }),
      null,
    ],
    // The label alone decides nothing: such a bounce counts toward the soft-bounce threshold.
    ['a permanent bounce with no text', event({ bounce: { type: 'permanent' } }), null],
    ['a transient bounce with no text', event({ bounce: { type: 'transient' } }), null],
    [
      'a permanent "user unknown"',
      event({ bounce: { type: 'permanent', diagnostic: '550 5.1.1 User unknown' } }),
      'bounce',
    ],
    [
      'a permanent block-list refusal',
      event({
        bounce: {
          type: 'permanent',
          diagnostic: '554 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org',
        },
      }),
      null,
    ],
    [
      'a transient "user unknown"',
      event({
        bounce: { type: 'transient', diagnostic: '450 4.1.1 <a@b.example>: Recipient address rejected: User unknown' },
      }),
      'bounce',
    ],
  ])('when %s arrives, then it suppresses with %s', (_label, input, origin) => {
    expect(decideEvent(parseSuppressionEvent(input), DEFAULT_BOUNCE_ACTIONS).origin).toBe(origin);
  });
});

describe('job ids', () => {
  it('when an event id contains colons, then the job id has none and is stable', () => {
    const id = eventJobId(ACCOUNT, 'ses:0102:abc/def==');
    expect(id).not.toContain(':');
    expect(id).toBe(eventJobId(ACCOUNT.toUpperCase(), 'ses:0102:abc/def=='));
  });

  it('when two events differ, then their job ids differ, also across accounts', () => {
    const other = '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1e';
    const ids = new Set([
      eventJobId(ACCOUNT, 'a'),
      eventJobId(ACCOUNT, 'b'),
      eventJobId(other, 'a'),
      eventJobId(ACCOUNT, 'a.b'),
    ]);
    expect(ids.size).toBe(4);
  });
});
