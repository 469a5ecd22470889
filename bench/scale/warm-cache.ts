import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { partitionsOf } from '../../src/db/month-partitions.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface WarmCache {
  bytes: number;
  ms: number;
}

/**
 * Reads into the operating system's cache, before a step is measured, what a server that has been
 * answering this traffic would hold in memory: the entries and their (account, address) key, which
 * every lookup, check and event reads at random; the receipts' key, which every event probes; and
 * the audit trail's partitions that the ingest writes and its soft-bounce window reads, with their
 * indexes. Right after a load, the cache holds whatever the load and the index builds read last:
 * each measurement's first pass over its random sample would read from disk what a running server
 * finds in memory, and whichever side of a comparison ran first would pay for both.
 */
export async function warmCache(pool: pg.Pool, windowDays: number): Promise<WarmCache> {
  const started = performance.now();
  const windowStart = Date.now() - windowDays * DAY_MS;
  const trail = (await partitionsOf(pool, 'suppression_events'))
    .filter((partition) => partition.until.getTime() > windowStart)
    .map((partition) => partition.name);
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  const { rows } = await pool.query<{ blocks: string | null }>({
    text: `WITH trail AS (SELECT to_regclass(name) AS relation FROM unnest($1::text[]) AS name),
                relations AS (
                  SELECT 'suppressions'::regclass AS relation
                  UNION ALL SELECT 'suppressions_account_email_scope_key'::regclass
                  UNION ALL SELECT 'event_receipts_pkey'::regclass
                  UNION ALL SELECT relation FROM trail
                  UNION ALL SELECT i.indexrelid::regclass FROM pg_index i JOIN trail ON i.indrelid = trail.relation
                )
           SELECT sum(pg_prewarm(relation, 'read')) AS blocks FROM relations WHERE relation IS NOT NULL`,
    values: [trail],
  });
  const { rows: blockSize } = await pool.query<{ block_size: string }>('SHOW block_size');
  return {
    bytes: Number(rows[0]?.blocks ?? 0) * Number(blockSize[0]?.block_size ?? 8192),
    ms: performance.now() - started,
  };
}
