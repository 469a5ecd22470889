import type { Database } from '../db/database.js';
import { traceChangesOf } from '../db/change-trace.js';
import { recordEvents, type RecordedEvent } from './event-repository.js';
import { applyReactivation } from './reactivation-repository.js';
import { DEFAULT_EVENT_POLICY, eventPolicies, type EventPolicy } from '../policy/settings-repository.js';
import { lockAddresses } from './soft-bounce-repository.js';
import { applySoftBounceThresholds } from './apply-soft-bounce-thresholds.js';
import type { BounceClassifier } from './event-decision.js';
import { writeOnce } from './duplicate-events.js';
import { toEventRecord, type EventRecord } from './event-record.js';
import type { SuppressionEvent } from './event-schema.js';
import { isSoftBounce } from './soft-bounces.js';
import type { SoftBounceRule } from '../policy/soft-bounce-rule.js';

/**
 * Applies validated events together, written by one recordEvents call, and reports each one's outcome, in
 * order: suppressed, suppressed_soft_bounce_threshold, already_suppressed, not_suppressed, duplicate
 * (see duplicate-events.ts), or unknown_account, which the caller turns into a failure of its own.
 *
 * Each bounce is classified and does what its account's action for the category says. A batch with
 * bounces that count toward a threshold the account set is written in a transaction that first
 * locks those addresses, so the count and the suppression it leads to happen once however the
 * events are spread over batches and workers. Any other batch is the one statement it always was,
 * unless it is traced: given the batch's `traceparent`, its writes share a transaction that hands
 * the trace to the webhook changes they make.
 */
export async function recordEventBatch(
  db: Database,
  events: readonly SuppressionEvent[],
  classify?: BounceClassifier,
  traceparent?: string,
): Promise<RecordedEvent[]> {
  // Reactivations are rare, and undo entries rather than add them: each is a statement of its own,
  // after the batch's bounces and complaints, so that one about an address of the batch sees them.
  const reactivations = events.filter((event) => event.type === 'reactivation');
  if (reactivations.length === 0) return recordSuppressingBatch(db, events, classify, traceparent);
  const others = events.filter((event) => event.type !== 'reactivation');
  const recorded = others.length === 0 ? [] : await recordSuppressingBatch(db, others, classify, traceparent);
  const byEvent = new Map<SuppressionEvent, RecordedEvent>(others.map((event, index) => [event, recorded[index]!]));
  for (const event of reactivations) byEvent.set(event, await applyReactivation(db, event));
  return events.map((event) => byEvent.get(event) as RecordedEvent);
}

async function recordSuppressingBatch(
  db: Database,
  events: readonly SuppressionEvent[],
  classify?: BounceClassifier,
  traceparent?: string,
): Promise<RecordedEvent[]> {
  // A complaint of no scope is the same under every policy: only the others need their account's.
  const decidedByPolicy = events.filter((e) => e.type === 'bounce' || (e.scope ?? null) !== null);
  const accounts = [...new Set(decidedByPolicy.map((e) => e.account_id))];
  const policies = accounts.length === 0 ? new Map<string, EventPolicy>() : await eventPolicies(db, accounts);
  const records = events.map((event) =>
    toEventRecord(event, policies.get(event.account_id) ?? DEFAULT_EVENT_POLICY, classify),
  );
  const rules = new Map<string, SoftBounceRule>();
  for (const [accountId, policy] of policies) if (policy.softBounce) rules.set(accountId, policy.softBounce);
  const counted = records.filter((record) => isSoftBounce(record) && rules.has(record.account_id));
  const results =
    counted.length === 0 && traceparent === undefined
      ? await writeOnce(records, (distinct) => recordEvents(db, distinct))
      : await db.withTransaction(async (client) => {
          if (traceparent !== undefined) await traceChangesOf(client, traceparent);
          if (counted.length > 0) await lockAddresses(client, counted);
          return writeOnce(records, async (distinct) => {
            const written = await recordEvents(client, distinct);
            if (counted.length > 0) await applySoftBounceThresholds(client, distinct, written, rules, policies);
            return written;
          });
        });
  results.forEach((result, index) => {
    result.category = (records[index] as EventRecord).bounce_category;
  });
  return results;
}
