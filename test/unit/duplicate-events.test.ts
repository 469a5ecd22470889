import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/events/event-repository.js';
import { writeOnce } from '../../src/events/duplicate-events.js';
import type { EventRecord } from '../../src/events/event-record.js';

const ACCOUNT = '01890a5d-ac96-774b-bcce-b302099a8057';
const OTHER_ACCOUNT = '01890a5d-ac96-774b-bcce-b302099a8058';

function record(eventId: string, accountId = ACCOUNT): EventRecord {
  return {
    account_id: accountId,
    event_id: eventId,
    type: 'complaint',
    email: `${eventId}@example.com`,
    source_id: '01890a5d-ac96-774b-bcce-b302099a8059',
    action: 'suppress',
    origin: 'complaint',
    scope: '',
    actor_type: 'queue',
    actor_id: null,
    suppression_id: `suppression-of-${eventId}`,
    occurred_at: '2026-01-01T00:00:00.000Z',
    bounce_type: null,
    bounce_sub_type: null,
    bounce_status: null,
    bounce_reply_code: null,
    bounce_diagnostic: null,
    bounce_provider: null,
    bounce_remote_mta: null,
    bounce_category: null,
    bounce_reason: null,
    bounce_rule: null,
    classifier_version: null,
    complaint_feedback_type: 'abuse',
    provider_message_id: null,
  };
}

/** A write that suppresses each distinct event with its own id, remembering what it was given. */
function suppressingWrite(seen: EventRecord[][], unknownAccount?: string) {
  return (distinct: EventRecord[]): Promise<RecordedEvent[]> => {
    seen.push(distinct);
    return Promise.resolve(
      distinct.map((entry) =>
        entry.account_id === unknownAccount
          ? { outcome: 'unknown_account', suppression_id: null }
          : { outcome: 'suppressed', suppression_id: entry.suppression_id },
      ),
    );
  };
}

describe('writeOnce', () => {
  it('when an event comes twice in one batch, then it is written once and the copy reports duplicate with the first one’s suppression', async () => {
    const seen: EventRecord[][] = [];
    const first = record('a');
    const results = await writeOnce(
      [first, record('b'), { ...record('a'), suppression_id: 'another id' }],
      suppressingWrite(seen),
    );
    expect(seen).toEqual([[first, record('b')]]);
    expect(results).toEqual([
      { outcome: 'suppressed', suppression_id: 'suppression-of-a' },
      { outcome: 'suppressed', suppression_id: 'suppression-of-b' },
      { outcome: 'duplicate', suppression_id: 'suppression-of-a' },
    ]);
  });

  it('when two accounts use the same event id, then both are written: an event is its account and id together', async () => {
    const seen: EventRecord[][] = [];
    const results = await writeOnce([record('a'), record('a', OTHER_ACCOUNT)], suppressingWrite(seen));
    expect(seen[0]).toHaveLength(2);
    expect(results.map((result) => result.outcome)).toEqual(['suppressed', 'suppressed']);
  });

  it('when the first of two copies is for an unknown account, then the copy reports unknown_account too', async () => {
    const results = await writeOnce(
      [record('a', OTHER_ACCOUNT), record('a', OTHER_ACCOUNT)],
      suppressingWrite([], OTHER_ACCOUNT),
    );
    expect(results.map((result) => result.outcome)).toEqual(['unknown_account', 'unknown_account']);
  });
});
