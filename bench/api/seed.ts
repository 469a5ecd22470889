import { performance } from 'node:perf_hooks';
import type { Queryable } from '../../src/db/database.js';

// A UUIDv7-shaped id made in SQL: 48 bits of milliseconds (base + row number, so ids are time
// ordered like the service's), version 7, random bits, variant 10.
const ID_SQL = `(lpad(to_hex($3::bigint + g), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || '8' || substr(md5(g::text || random()::text), 1, 15))::uuid`;

/** Numbers in [0, 1) from a fixed seed: the same sequence on every run, so every run asks the same. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4_294_967_296;
  };
}

/** The address the seed gives row `g` (global row number), so a bench knows which lookups hit. */
export const seededEmail = (g: number): string => `user${g}@example${g % 97}.com`;

/**
 * Inserts `rows` suppressions spread round-robin over `accountIds` (row g goes to account g % n,
 * address `seededEmail(g)`), in SQL, through the real schema and indexes; then ANALYZE.
 * Ids are time-ordered, the newest row being the last one. Resolves with the milliseconds the
 * inserts took (ANALYZE aside): PostgreSQL's own rate for rows of this table on this machine.
 */
export async function seedSuppressions(
  db: Queryable,
  accountIds: readonly string[],
  rows: number,
  chunk = 250_000,
): Promise<number> {
  const baseMs = Date.now() - rows - 60_000;
  const startedAt = performance.now();
  for (let start = 0; start < rows; start += chunk) {
    await db.query({
      text: `INSERT INTO suppressions (id, account_id, email, origin, created_at)
             SELECT ${ID_SQL}, ($1::uuid[])[1 + g % cardinality($1::uuid[])], 'user' || g || '@example' || (g % 97) || '.com',
                    ('{bounce,complaint,manual}'::text[])[1 + g % 3], to_timestamp(($3::bigint + g) / 1000.0)
             FROM generate_series($2::bigint, $4::bigint) AS g`,
      values: [accountIds, start, baseMs, Math.min(rows, start + chunk) - 1],
    });
  }
  const insertMs = performance.now() - startedAt;
  await db.query({ text: 'ANALYZE suppressions' });
  return insertMs;
}
