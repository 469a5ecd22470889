/**
 * Loading a step of the scale benchmark: entries `from` to `to` of rows.ts into `suppressions`,
 * their records into the month partitions of `suppression_events` and their receipts into
 * `event_receipts`, by COPY FROM STDIN into the migrated tables, indexes and all, three COPYs at
 * once (one connection each) a chunk at a time.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import cliProgress from 'cli-progress';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
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
  await pipeline(
    Readable.from(pieces(line, accountIds, from, to, end)),
    client.query(copyFrom(`COPY ${table} FROM STDIN`)),
  );
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
  const ms = performance.now() - started;
  return { rows: to - from, ms, rowsPerSecond: (to - from) / (ms / 1000) };
}
