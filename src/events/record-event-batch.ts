import type { Database } from '../db/database.js';
import { recordEvents, type RecordedEvent } from '../db/event-repository.js';
import { softBounceRules } from '../db/settings-repository.js';
import { lockAddresses } from '../db/soft-bounce-repository.js';
import { applySoftBounceThresholds } from './apply-soft-bounce-thresholds.js';
import { writeOnce } from './duplicate-events.js';
import { toEventRecord } from './event-record.js';
import type { SuppressionEvent } from './event-schema.js';
import { isSoftBounce } from './soft-bounce-threshold.js';

/**
 * Applies validated events together, written by one recordEvents call, and reports each one's outcome, in
 * order: suppressed, suppressed_soft_bounce_threshold, already_suppressed, not_suppressed, duplicate
 * (see duplicate-events.ts), or unknown_account, which the caller turns into a failure of its own.
 *
 * A batch with soft bounces for accounts that set a threshold is written in a transaction that
 * first locks those addresses, so the count and the suppression it leads to happen once however
 * the events are spread over batches and workers. Any other batch is the one statement it always was.
 */
export async function recordEventBatch(db: Database, events: readonly SuppressionEvent[]): Promise<RecordedEvent[]> {
  const records = events.map(toEventRecord);
  const soft = records.filter(isSoftBounce);
  const rules = soft.length === 0 ? new Map() : await softBounceRules(db, [...new Set(soft.map((r) => r.account_id))]);
  if (rules.size === 0) return writeOnce(records, (distinct) => recordEvents(db, distinct));
  return db.withTransaction(async (client) => {
    await lockAddresses(
      client,
      soft.filter((record) => rules.has(record.account_id)),
    );
    return writeOnce(records, async (distinct) => {
      const results = await recordEvents(client, distinct);
      await applySoftBounceThresholds(client, distinct, results, rules);
      return results;
    });
  });
}
