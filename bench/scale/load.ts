/**
 * Loading a step of the scale benchmark: entries `from` to `to` of rows.ts into `suppressions`,
 * their records into the month partitions of `suppression_events` and their receipts into
 * `event_receipts`, by COPY FROM STDIN into the migrated tables, three COPYs at once (one
 * connection each) a chunk at a time. As a restore does, the tables' keys, foreign keys and indexes
 * are dropped for the load and built again after it (timed on their own): inserted one row at a
 * time in the addresses' random order, tens of millions of entries take hours and leave the
 * indexes half again as large.
 */
import { performance } from 'node:perf_hooks';
import cliProgress from 'cli-progress';
import type pg from 'pg';
import { copyIn } from '../common/copy-in.js';
import {
  EVENT_COLUMNS,
  RECEIPT_COLUMNS,
  SPAN_MONTHS,
  SUPPRESSION_COLUMNS,
  eventLine,
  receiptLine,
  suppressionLine,
} from './rows.js';

// Rows per COPY statement: a chunk is a transaction, so an interrupted load leaves whole chunks.
const CHUNK_ROWS = 200_000;
// Lines joined per write: one small string per row would cost a stream write per row.
const PIECE_ROWS = 2_000;

export interface LoadFigures {
  rows: number;
  ms: number;
  rowsPerSecond: number;
  /** Building the keys and indexes again after the rows were copied. */
  rebuildMs: number;
}

const LOADED_TABLES = ['suppressions', 'suppression_events', 'event_receipts'];

interface Rebuildable {
  drop: string;
  create: string;
  /** Keys first, so that foreign keys and indexes find them; dropped in the reverse order. */
  order: number;
}

/** The keys, foreign keys and indexes of the loaded tables, as statements to drop and create them. */
async function rebuildables(client: pg.Client): Promise<Rebuildable[]> {
  const constraints = await client.query<{ tbl: string; name: string; def: string; type: string }>({
    text: `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def, contype AS type
           FROM pg_constraint
           WHERE conrelid = ANY($1::regclass[]) AND contype IN ('p', 'u', 'f') AND conparentid = 0`,
    values: [LOADED_TABLES],
  });
  // Indexes of no constraint; a partitioned table's index stands for those of its partitions.
  const indexes = await client.query<{ name: string; def: string }>({
    text: `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
           FROM pg_index i
           WHERE i.indrelid = ANY($1::regclass[])
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    values: [LOADED_TABLES],
  });
  return [
    ...constraints.rows.map((c) => ({
      drop: `ALTER TABLE ${c.tbl} DROP CONSTRAINT ${c.name}`,
      create: `ALTER TABLE ${c.tbl} ADD CONSTRAINT ${c.name} ${c.def}`,
      order: c.type === 'f' ? 1 : 0,
    })),
    // A partitioned table's index is shown `ON ONLY` the table, which would build none of its partitions'.
    ...indexes.rows.map((index) => ({
      drop: `DROP INDEX ${index.name}`,
      create: index.def.replace(' ON ONLY ', ' ON '),
      order: 2,
    })),
  ].sort((a, b) => a.order - b.order);
}

/**
 * Runs `load` with the loaded tables' keys and indexes dropped, then builds them again (also when
 * the load failed, so the schema is left as it was); returns the time of the build.
 */
async function withoutIndexes(client: pg.Client, load: () => Promise<void>): Promise<number> {
  const structures = await rebuildables(client);
  await client.query('BEGIN');
  for (const structure of [...structures].reverse()) await client.query(structure.drop);
  await client.query('COMMIT');
  const failed = await load().then(
    () => null,
    (error: unknown) => ({ error }),
  );
  const rebuildMs = await rebuild(client, structures);
  if (failed) throw failed.error;
  return rebuildMs;
}

async function rebuild(client: pg.Client, structures: readonly Rebuildable[]): Promise<number> {
  const started = performance.now();
  await client.query("SET maintenance_work_mem = '1GB'");
  await client.query('BEGIN');
  for (const structure of structures) await client.query(structure.create);
  await client.query('COMMIT');
  await client.query('RESET maintenance_work_mem');
  return performance.now() - started;
}

/** The month partitions the trail's two years fall into, created before the first row is copied. */
export async function createMonthPartitions(client: pg.Client, end: number): Promise<void> {
  await client.query({
    text: `SELECT create_month_partition('suppression_events', $1::timestamptz - make_interval(months => m))
           FROM generate_series(0, $2::int) AS m`,
    values: [new Date(end), SPAN_MONTHS + 1],
  });
}

function* pieces(
  line: (index: number, accountId: string, end: number) => string,
  accountIds: readonly string[],
  from: number,
  to: number,
  end: number,
): Generator<string> {
  for (let start = from; start < to; start += PIECE_ROWS) {
    let piece = '';
    const stop = Math.min(to, start + PIECE_ROWS);
    for (let index = start; index < stop; index += 1)
      piece += line(index, accountIds[index % accountIds.length] as string, end);
    if (piece) yield piece;
  }
}

async function copyChunk(
  client: pg.Client,
  table: string,
  line: (index: number, accountId: string, end: number) => string,
  accountIds: readonly string[],
  from: number,
  to: number,
  end: number,
): Promise<void> {
  await copyIn(client, `COPY ${table} FROM STDIN`, pieces(line, accountIds, from, to, end));
}

/**
 * Copies entries [from, to) with their records and receipts; `clients` are three connections of
 * their own with no statement timeout. A progress bar on stderr shows the entries copied.
 */
export async function loadEntries(
  clients: readonly [pg.Client, pg.Client, pg.Client],
  accountIds: readonly string[],
  from: number,
  to: number,
  end: number,
): Promise<LoadFigures> {
  let copied = { ms: 0 };
  // No check filter runs while the benchmark loads, and each step's filter is built from the table:
  // the key changes a restore would record for filters that are not there are left out, as the
  // indexes are. The ingest measured after the load writes them.
  await clients[0].query('ALTER TABLE suppressions DISABLE TRIGGER suppressions_keys_added');
  try {
    const rebuilt = await withoutIndexes(clients[0], async () => {
      copied = await copyEntries(clients, accountIds, from, to, end);
    });
    return { rows: to - from, ms: copied.ms, rowsPerSecond: (to - from) / (copied.ms / 1000), rebuildMs: rebuilt };
  } finally {
    await clients[0].query('ALTER TABLE suppressions ENABLE TRIGGER suppressions_keys_added');
  }
}

async function copyEntries(
  clients: readonly [pg.Client, pg.Client, pg.Client],
  accountIds: readonly string[],
  from: number,
  to: number,
  end: number,
): Promise<{ ms: number }> {
  const [entries, events, receipts] = clients;
  const bar = new cliProgress.SingleBar(
    {
      format: 'loading {bar} {value}/{total} entries | {rate} entries/s | {duration_formatted}',
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(to - from, 0, { rate: 0 });
  try {
    for (let start = from; start < to; start += CHUNK_ROWS) {
      const stop = Math.min(to, start + CHUNK_ROWS);
      await Promise.all([
        copyChunk(entries, `suppressions (${SUPPRESSION_COLUMNS})`, suppressionLine, accountIds, start, stop, end),
        copyChunk(events, `suppression_events (${EVENT_COLUMNS})`, eventLine, accountIds, start, stop, end),
        copyChunk(receipts, `event_receipts (${RECEIPT_COLUMNS})`, receiptLine, accountIds, start, stop, end),
      ]);
      const done = stop - from;
      bar.update(done, { rate: Math.round(done / ((performance.now() - started) / 1000)) });
    }
  } finally {
    bar.stop();
  }
  return { ms: performance.now() - started };
}
