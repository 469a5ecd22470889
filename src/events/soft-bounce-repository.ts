import type { Queryable } from '../db/database.js';
import { COVERED_BY_ALLOWLIST } from '../allowlist/allowlist-repository.js';
import { UNCLASSIFIED_SOFT_BOUNCE_TYPES } from './soft-bounces.js';
import { justRecordedSince } from './event-repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AddressKey {
  account_id: string;
  email: string;
}

/**
 * Takes a transaction-scoped lock per address, in one order for every caller, so two batches that
 * hold soft bounces for the same address count them one after the other: the second sees the
 * first's events once it holds the lock.
 */
export async function lockAddresses(db: Queryable, addresses: readonly AddressKey[]): Promise<void> {
  const keys = [...new Set(addresses.map((address) => `${address.account_id}\n${address.email}`))];
  if (keys.length === 0) return;
  await db.query({
    text: `SELECT pg_advisory_xact_lock(lock_key)
           FROM (SELECT DISTINCT hashtextextended(key, 7300111202611) AS lock_key FROM unnest($1::text[]) AS key
                 ORDER BY lock_key) AS ordered`,
    values: [keys],
  });
}

export interface SoftBounceRecord extends AddressKey {
  event_id: string;
  occurred_at: Date;
}

/**
 * The soft bounces recorded for these addresses with `occurred_at` in their ranges, since each
 * address's last removal (a removal starts its count again): the bounces whose category is one of
 * the range's `counted`. A bounce recorded before bounces were classified has no category and
 * counts by its label, as it did then (`UNCLASSIFIED_SOFT_BOUNCE_TYPES`).
 *
 * A probe of the (account_id, email) index per address, in the months its range can reach only:
 * `OFFSET 0` keeps the lateral subquery from being flattened into a join, which the planner would
 * join by hashing every bounce of the audit trail, read whole, once it holds a million. The bounds on
 * `received_at`, known per address as it is probed, leave the other months unread. The earliest of
 * them also comes as a parameter of its own, so that the planner leaves the months before it out of
 * the plan: planned over every month of the trail, the statement was costed high enough to be
 * JIT-compiled, hundreds of milliseconds a batch, however few rows it read.
 */
export async function softBouncesOf(
  db: Queryable,
  ranges: readonly (AddressKey & { counted: readonly string[]; from: Date; to: Date })[],
): Promise<SoftBounceRecord[]> {
  if (ranges.length === 0) return [];
  const { rows } = await db.query<SoftBounceRecord>({
    text: `SELECT e.account_id, e.email, e.event_id, e.occurred_at
           FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::text[])
             AS w(account_id, email, from_at, to_at, counted)
           CROSS JOIN LATERAL (
             SELECT e.account_id, e.email, e.event_id, e.occurred_at FROM suppression_events e
             WHERE e.account_id = w.account_id AND e.email = w.email AND e.type = 'bounce'
               AND (e.bounce_category = ANY(w.counted::text[])
                    OR (e.bounce_category IS NULL AND e.bounce_type = ANY($6::text[])))
               AND e.occurred_at BETWEEN w.from_at AND w.to_at
               -- A bounce is received after it occurred (a day allowed for clocks): the months before
               -- the window are not read.
               AND e.received_at >= w.from_at - interval '1 day' AND e.received_at >= $7::timestamptz
               -- Since the last removal; one before the bounces this can find decides nothing, so
               -- the months before them are not read for it either.
               AND e.received_at > COALESCE(
                 (SELECT max(r.received_at) FROM suppression_events r
                  WHERE r.account_id = w.account_id AND r.email = w.email AND r.type = 'removal'
                    AND r.received_at >= w.from_at - interval '1 day' AND r.received_at >= $7::timestamptz),
                 '-infinity')
             OFFSET 0
           ) e`,
    values: [
      ranges.map((range) => range.account_id),
      ranges.map((range) => range.email),
      ranges.map((range) => range.from),
      ranges.map((range) => range.to),
      // One array literal per range: unnest cannot take an array of arrays of different lengths.
      ranges.map((range) => `{${range.counted.join(',')}}`),
      UNCLASSIFIED_SOFT_BOUNCE_TYPES,
      new Date(Math.min(...ranges.map((range) => range.from.getTime())) - DAY_MS),
    ],
  });
  return rows;
}

export interface Crossing extends AddressKey {
  event_id: string;
  source_id: string;
  suppression_id: string;
}

/**
 * Suppresses each address (origin `bounce`, the crossing bounce's `source_id`) unless it is on the
 * list already, and marks the crossing event's outcome; returns the crossings that suppressed.
 */
export async function suppressAtThreshold<C extends Crossing>(db: Queryable, crossings: readonly C[]): Promise<C[]> {
  if (crossings.length === 0) return [];
  const { rows } = await db.query<{ account_id: string; event_id: string }>({
    text: `WITH input AS (
             SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::uuid[])
               AS t(account_id, email, event_id, source_id, suppression_id)
           ), inserted AS (
             INSERT INTO suppressions (id, account_id, email, origin, source_id)
             SELECT suppression_id, account_id, email, 'bounce', source_id FROM input
             WHERE NOT ${COVERED_BY_ALLOWLIST('input.account_id', 'input.email')}
             ORDER BY account_id, email
             ON CONFLICT (account_id, email, scope) DO NOTHING
             RETURNING id
           )
           UPDATE suppression_events e SET outcome = 'suppressed_soft_bounce_threshold', suppression_id = input.suppression_id
           FROM input
           WHERE input.suppression_id IN (SELECT id FROM inserted)
             AND e.account_id = input.account_id AND e.email = input.email AND e.event_id = input.event_id
             -- The crossing bounces were recorded just now: only the latest partitions are planned and read.
             AND e.received_at > $6::timestamptz
           RETURNING e.account_id, e.event_id`,
    values: [
      crossings.map((crossing) => crossing.account_id),
      crossings.map((crossing) => crossing.email),
      crossings.map((crossing) => crossing.event_id),
      crossings.map((crossing) => crossing.source_id),
      crossings.map((crossing) => crossing.suppression_id),
      justRecordedSince(),
    ],
  });
  const suppressed = new Set(rows.map((row) => `${row.account_id}\n${row.event_id}`));
  return crossings.filter((crossing) => suppressed.has(`${crossing.account_id}\n${crossing.event_id}`));
}
