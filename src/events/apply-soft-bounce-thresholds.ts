import type { Queryable } from '../db/database.js';
import type { RecordedEvent } from './event-repository.js';
import type { EventPolicy } from '../policy/settings-repository.js';
import { softBouncesOf, suppressAtThreshold, type Crossing } from './soft-bounce-repository.js';
import { newId } from '../domain/ids.js';
import { eventIdentity } from './duplicate-events.js';
import type { EventRecord } from './event-record.js';
import { crossingIndex, softBounceCategories, windowAround, type SoftBounceRule } from '../policy/soft-bounce-rule.js';
import { isSoftBounce } from './soft-bounces.js';

interface Watched {
  rule: SoftBounceRule;
  /** Positions in the batch of the address's newly recorded soft bounces, in arrival order. */
  positions: number[];
}

/**
 * After a batch is recorded, in its transaction and under the addresses' locks (see
 * `lockAddresses`): suppresses each address whose soft bounces (those whose category the account
 * counts) now meet its account's rule, crediting the bounce that got it there, and turns that
 * bounce's result into `suppressed_soft_bounce_threshold`.
 */
export async function applySoftBounceThresholds(
  db: Queryable,
  records: readonly EventRecord[],
  results: RecordedEvent[],
  rules: ReadonlyMap<string, SoftBounceRule>,
  policies: ReadonlyMap<string, EventPolicy>,
): Promise<void> {
  const watched = new Map<string, Watched>();
  records.forEach((record, position) => {
    const rule = rules.get(record.account_id);
    if (!rule || !isSoftBounce(record) || results[position]?.outcome !== 'not_suppressed') return;
    const key = `${record.account_id}\n${record.email}`;
    const entry = watched.get(key) ?? { rule, positions: [] };
    entry.positions.push(position);
    watched.set(key, entry);
  });
  if (watched.size === 0) return;

  const timeOf = (position: number): number => Date.parse((records[position] as EventRecord).occurred_at);
  const ranges = [...watched.values()].map(({ rule, positions }) => {
    const record = records[positions[0] as number] as EventRecord;
    const times = positions.map(timeOf);
    return {
      account_id: record.account_id,
      email: record.email,
      counted: softBounceCategories((policies.get(record.account_id) as EventPolicy).actions),
      from: windowAround(Math.min(...times), rule).from,
      to: windowAround(Math.max(...times), rule).to,
    };
  });
  const recorded = await softBouncesOf(db, ranges);
  const batchEvents = new Set(
    [...watched.values()].flatMap(({ positions }) => positions.map((p) => eventIdentity(records[p] as EventRecord))),
  );
  const earlier = new Map<string, number[]>();
  for (const row of recorded) {
    if (batchEvents.has(eventIdentity(row))) continue;
    const key = `${row.account_id}\n${row.email}`;
    earlier.set(key, [...(earlier.get(key) ?? []), row.occurred_at.getTime()]);
  }

  const crossings: (Crossing & { position: number })[] = [];
  for (const [key, { rule, positions }] of watched) {
    const index = crossingIndex(earlier.get(key) ?? [], positions.map(timeOf), rule);
    if (index === null) continue;
    const position = positions[index] as number;
    const record = records[position] as EventRecord;
    crossings.push({
      position,
      account_id: record.account_id,
      email: record.email,
      event_id: record.event_id,
      source_id: record.source_id,
      suppression_id: newId(),
    });
  }
  for (const crossing of await suppressAtThreshold(db, crossings)) {
    results[crossing.position] = {
      outcome: 'suppressed_soft_bounce_threshold',
      suppression_id: crossing.suppression_id,
    };
  }
}
