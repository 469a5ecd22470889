/**
 * The measurements of one step of the scale benchmark, each the service's own function against the
 * bare SQL the database answers it with, in the same run: lookups and checks for a fixed time on
 * several connections, pages and searches of one account, an export, the ingest path under a
 * soft-bounce threshold, sizes on disk and plans.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { DEFAULT_BOUNCE_ACTIONS } from '../../src/bounces/categories.js';
import { MAX_CHECK_ITEMS, MAX_PAGE_SIZE } from '../../src/contract/limits.js';
import type { Database } from '../../src/db/database.js';
import { recordEvents } from '../../src/events/event-repository.js';
import { toEventRecord } from '../../src/events/event-record.js';
import { parseSuppressionEvent, type SuppressionEvent } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { softBouncesOf } from '../../src/events/soft-bounce-repository.js';
import { softBounceCategories, windowAround } from '../../src/events/soft-bounce-threshold.js';
import { writeExport } from '../../src/export/write-export.js';
import { streamSuppressions } from '../../src/export/suppression-export.js';
import { DEFAULT_EVENT_POLICY } from '../../src/policy/settings-repository.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import {
  COLUMNS,
  findSuppressionsByEmails,
  listSuppressions,
  type ListQuery,
} from '../../src/suppressions/suppression-repository.js';
import { explainFirst, type PlanSummary } from './plans.js';
import { SEARCH_DOMAIN, SEARCH_PREFIX, SPAN_MS, absentEmail, cursorAt, emailOf } from './rows.js';
import { warmCache, type WarmCache } from './warm-cache.js';

/** The soft-bounce rule the benchmark sets on every account. */
export const SOFT_BOUNCE_RULE = { threshold: 3, windowDays: 7 } as const;

export interface StepContext {
  /** The service's database, as the API and the worker open it. */
  db: Database;
  /** A bare pool on the same database, for the baselines. */
  bare: pg.Pool;
  accountIds: readonly string[];
  /** Entries loaded. */
  size: number;
  /** The end of the two years the entries were made in (ms). */
  end: number;
  seconds: number;
  connections: number;
  events: number;
  exportCap: number;
}

export interface Latency {
  ops: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface Versus {
  service: Latency;
  bare: Latency;
}

export interface StepFigures {
  /** What was read into the cache before the step was measured (see warm-cache.ts). */
  warmed: WarmCache;
  lookup: Versus;
  /** Per check of 1,000 addresses; `perSecond` is checks per second. */
  check: Versus;
  firstPage: Latency;
  deepPage: Latency;
  searchDomain: Versus;
  searchPrefix: Versus;
  export: { rows: number; serviceRowsPerSecond: number; bareRowsPerSecond: number };
  ingest: { events: number; eventsPerSecond: number; noopEventsPerSecond: number; outcomes: Record<string, number> };
  sizes: Record<'suppressions' | 'suppression_events' | 'event_receipts', { totalBytes: number; indexBytes: number }>;
  plans: Record<string, PlanSummary>;
}

const percentile = (sorted: readonly number[], share: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number);

/**
 * Makes call `n`'s input and returns the call to time: inputs are made outside the clock, so the
 * loops measure the database and not the generator.
 */
type Prepare = (n: number) => () => Promise<unknown>;

/** Calls back to back on `connections` loops for `seconds`; each call's time, and the time taken. */
async function timesFor(
  seconds: number,
  connections: number,
  prepare: Prepare,
  first: number,
): Promise<{ times: number[]; elapsedS: number }> {
  const times: number[] = [];
  const stopAt = performance.now() + seconds * 1000;
  let next = first;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < stopAt) {
        const call = prepare(next++);
        const t = performance.now();
        await call();
        times.push(performance.now() - t);
      }
    }),
  );
  return { times, elapsedS: (performance.now() - started) / 1000 };
}

function latency(runs: readonly { times: number[]; elapsedS: number }[]): Latency {
  const times = runs.flatMap((run) => run.times).sort((a, b) => a - b);
  const elapsed = runs.reduce((sum, run) => sum + run.elapsedS, 0);
  const round = (ms: number): number => Math.round(ms * 100) / 100;
  return {
    ops: times.length,
    perSecond: Math.round(times.length / elapsed),
    p50Ms: round(percentile(times, 0.5)),
    p99Ms: round(percentile(times, 0.99)),
  };
}

// Two operations compared take turns, a then b, b then a, twice over, so that neither always runs
// on what the other left in the cache.
const TURNS = ['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a'] as const;

/**
 * Where `b`'s inputs start: each side draws its own addresses, so that neither reads the pages the
 * other's same inputs brought into the cache.
 */
const B_INPUTS = 1_000_000_000;

/** `a` and `b` for `seconds` each, in turns (`TURNS`), on `connections` loops; inputs go on from turn to turn. */
async function inTurns(seconds: number, connections: number, a: Prepare, b: Prepare): Promise<[Latency, Latency]> {
  const runs = { a: [] as { times: number[]; elapsedS: number }[], b: [] as { times: number[]; elapsedS: number }[] };
  const next = { a: 0, b: B_INPUTS };
  const turnSeconds = (seconds * 2) / TURNS.length;
  for (const turn of TURNS) {
    const run = await timesFor(turnSeconds, connections, turn === 'a' ? a : b, next[turn]);
    next[turn] += run.times.length;
    runs[turn].push(run);
  }
  return [latency(runs.a), latency(runs.b)];
}

async function versus(ctx: StepContext, service: Prepare, bare: Prepare): Promise<Versus> {
  const [serviceLatency, bareLatency] = await inTurns(ctx.seconds, ctx.connections, service, bare);
  return { service: serviceLatency, bare: bareLatency };
}

interface Address {
  accountId: string;
  email: string;
}

/** An entry of the list (index below the size loaded) or an address on none, half and half. */
function randomAddress(ctx: StepContext, n: number): Address {
  const accounts = ctx.accountIds.length;
  if (Math.random() < 0.5) {
    const index = Math.floor(Math.random() * ctx.size);
    return { accountId: ctx.accountIds[index % accounts] as string, email: emailOf(index) };
  }
  return { accountId: ctx.accountIds[n % accounts] as string, email: absentEmail(n) };
}

/** `MAX_CHECK_ITEMS` addresses of one account, about half of them its entries, in random order. */
function randomCheck(ctx: StepContext, n: number): { accountId: string; emails: string[] } {
  const accounts = ctx.accountIds.length;
  const account = n % accounts;
  const perAccount = Math.floor((ctx.size - 1 - account) / accounts) + 1;
  const emails = Array.from({ length: MAX_CHECK_ITEMS }, (_, k) =>
    Math.random() < 0.5
      ? emailOf(account + accounts * Math.floor(Math.random() * perAccount))
      : absentEmail(n * MAX_CHECK_ITEMS + k),
  );
  return { accountId: ctx.accountIds[account] as string, emails };
}

const BARE_LOOKUP = `SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND email = $2 AND scope = ''`;
const BARE_CHECK = `SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND email = ANY($2::text[]) AND scope = ''`;
const BARE_DOMAIN = `SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND split_part(email, '@', 2) = $2 ORDER BY id DESC LIMIT $3`;
const BARE_PREFIX = `SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND email LIKE $2 ORDER BY id DESC LIMIT $3`;

/**
 * Lookups and checks of addresses drawn afresh for every call over the whole list, as a platform's
 * traffic spreads over it; the draw is made before the clock starts.
 */
async function measureLookups(ctx: StepContext): Promise<Pick<StepFigures, 'lookup' | 'check'>> {
  const lookups = createSuppressionLookups(ctx.db);
  return {
    lookup: await versus(
      ctx,
      (n) => {
        const { accountId, email } = randomAddress(ctx, n);
        return () => lookups.byEmail(accountId, email);
      },
      (n) => {
        const { accountId, email } = randomAddress(ctx, n);
        return () => ctx.bare.query({ name: 'bare-lookup', text: BARE_LOOKUP, values: [accountId, email] });
      },
    ),
    check: await versus(
      ctx,
      (n) => {
        const { accountId, emails } = randomCheck(ctx, n);
        return () => lookups.suppressing(accountId, emails);
      },
      (n) => {
        const { accountId, emails } = randomCheck(ctx, n);
        return () => ctx.bare.query({ name: 'bare-check', text: BARE_CHECK, values: [accountId, emails] });
      },
    ),
  };
}

/** The account whose list is paged, searched and exported: in the many-accounts layout, one of a thousand. */
const listed = (ctx: StepContext): string => ctx.accountIds[0] as string;

/** The cursor 90 % of the way down the newest-first list: entries are spread evenly over the two years. */
const deepCursor = (ctx: StepContext): string => cursorAt(ctx.end - Math.floor(0.9 * SPAN_MS));

function listQueries(ctx: StepContext): Record<'first' | 'deep' | 'domain' | 'prefix', ListQuery> {
  const accountId = listed(ctx);
  return {
    first: { accountId, limit: MAX_PAGE_SIZE },
    deep: { accountId, limit: MAX_PAGE_SIZE, after: deepCursor(ctx) },
    domain: { accountId, limit: MAX_PAGE_SIZE, domain: SEARCH_DOMAIN },
    prefix: { accountId, limit: MAX_PAGE_SIZE, email: { prefix: SEARCH_PREFIX } },
  };
}

async function measureLists(
  ctx: StepContext,
): Promise<Pick<StepFigures, 'firstPage' | 'deepPage' | 'searchDomain' | 'searchPrefix'>> {
  const queries = listQueries(ctx);
  const accountId = listed(ctx);
  const [firstPage, deepPage] = await inTurns(
    ctx.seconds,
    ctx.connections,
    () => () => listSuppressions(ctx.db, queries.first),
    () => () => listSuppressions(ctx.db, queries.deep),
  );
  return {
    firstPage,
    deepPage,
    searchDomain: await versus(
      ctx,
      () => () => listSuppressions(ctx.db, queries.domain),
      () => () => ctx.bare.query(BARE_DOMAIN, [accountId, SEARCH_DOMAIN, MAX_PAGE_SIZE + 1]),
    ),
    searchPrefix: await versus(
      ctx,
      () => () => listSuppressions(ctx.db, queries.prefix),
      () => () => ctx.bare.query(BARE_PREFIX, [accountId, `${SEARCH_PREFIX}%`, MAX_PAGE_SIZE + 1]),
    ),
  };
}

const discard = (): Writable =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

async function* firstOf<T>(items: AsyncIterable<T>, count: number): AsyncGenerator<T> {
  let taken = 0;
  for await (const item of items) {
    if (taken === count) return;
    taken += 1;
    yield item;
  }
}

async function serviceExport(ctx: StepContext): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  const { exported } = await writeExport(
    firstOf(streamSuppressions(ctx.db, { accountId: listed(ctx) }), ctx.exportCap),
    discard(),
    'csv',
  );
  return { rows: exported, ms: performance.now() - started };
}

async function bareExport(ctx: StepContext): Promise<{ ms: number }> {
  const client = await ctx.bare.connect();
  try {
    const started = performance.now();
    // COPY takes no parameters; the id is a uuid the benchmark made, and the cap a number.
    await pipeline(
      client.query(
        copyTo(
          `COPY (SELECT ${COLUMNS} FROM suppressions WHERE account_id = '${listed(ctx)}' ORDER BY id DESC LIMIT ${ctx.exportCap}) TO STDOUT (FORMAT csv, HEADER)`,
        ),
      ),
      discard(),
    );
    return { ms: performance.now() - started };
  } finally {
    client.release();
  }
}

/**
 * The service's CSV export of the listed account (its first `exportCap` entries) against a bare COPY
 * TO, twice each in turns (service, COPY, COPY, service), so that neither reads what the other left
 * in the cache more often.
 */
async function measureExport(ctx: StepContext): Promise<StepFigures['export']> {
  const service = [await serviceExport(ctx)];
  const bare = [await bareExport(ctx), await bareExport(ctx)];
  service.push(await serviceExport(ctx));
  const rows = service[0]?.rows ?? 0;
  const totalMs = (runs: readonly { ms: number }[]) => runs.reduce((sum, run) => sum + run.ms, 0);
  return {
    rows,
    serviceRowsPerSecond: Math.round((2 * rows) / (totalMs(service) / 1000)),
    bareRowsPerSecond: Math.round((2 * rows) / (totalMs(bare) / 1000)),
  };
}

const INGEST_BATCH = 500;

/**
 * Batch `batch` of the ingest: 40 % hard bounces of new addresses, 30 % soft bounces of entries on
 * the list, 30 % soft bounces of new addresses that each get about three (and so cross the threshold).
 */
function ingestBatch(ctx: StepContext, batch: number): SuppressionEvent[] {
  const accounts = ctx.accountIds.length;
  const softPool = Math.max(1, Math.floor((ctx.events * 0.3) / 3));
  const occurredAt = new Date().toISOString();
  return Array.from({ length: INGEST_BATCH }, (_, k) => {
    const n = batch * INGEST_BATCH + k;
    const roll = Math.random();
    let index: number;
    let email: string;
    if (roll < 0.4) {
      index = n;
      email = `ingest${ctx.size}.${n}@${n % 2 === 0 ? 'gmail.com' : 'mail.company77.com'}`;
    } else if (roll < 0.7) {
      index = Math.floor(Math.random() * ctx.size);
      email = emailOf(index);
    } else {
      index = n % softPool;
      email = `soft${ctx.size}.${index}@outlook.com`;
    }
    const hard = roll < 0.4;
    return parseSuppressionEvent({
      account_id: ctx.accountIds[index % accounts],
      event_id: `scale-${ctx.size}-${n}-${randomUUID()}`,
      email,
      source_id: randomUUID(),
      occurred_at: occurredAt,
      type: 'bounce',
      bounce: hard
        ? {
            type: 'permanent',
            sub_type: 'general',
            status: '5.1.1',
            diagnostic: `smtp; 550 5.1.1 <${email}>: Recipient address rejected: User unknown in virtual mailbox table`,
          }
        : {
            type: 'transient',
            sub_type: 'mailbox_full',
            status: '4.2.2',
            diagnostic: 'smtp; 452 4.2.2 Mailbox full, try again later',
          },
    });
  });
}

/** `ctx.events` events through recordEventBatch, one batch at a time, against the same loop writing nothing. */
async function measureIngest(ctx: StepContext): Promise<StepFigures['ingest']> {
  const batches = Math.ceil(ctx.events / INGEST_BATCH);
  const noopStarted = performance.now();
  let made = 0;
  for (let batch = 0; batch < batches; batch += 1) made += ingestBatch(ctx, batch).length;
  const noopMs = performance.now() - noopStarted;
  const outcomes: Record<string, number> = {};
  const started = performance.now();
  for (let batch = 0; batch < batches; batch += 1) {
    for (const result of await recordEventBatch(ctx.db, ingestBatch(ctx, batch)))
      outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
  }
  const ms = performance.now() - started;
  return {
    events: made,
    eventsPerSecond: Math.round(made / (ms / 1000)),
    noopEventsPerSecond: Math.round(made / (noopMs / 1000)),
    outcomes,
  };
}

async function measureSizes(ctx: StepContext): Promise<StepFigures['sizes']> {
  // A partitioned table's own size is nothing: its partitions hold the rows; a plain table has no tree.
  const size = async (table: string) => {
    const { rows } = await ctx.bare.query<{ total: string; indexes: string }>(
      `SELECT sum(pg_total_relation_size(relid)) AS total, sum(pg_indexes_size(relid)) AS indexes
       FROM (SELECT relid FROM pg_partition_tree($1::regclass) UNION SELECT $1::regclass) AS tree`,
      [table],
    );
    return { totalBytes: Number(rows[0]?.total ?? 0), indexBytes: Number(rows[0]?.indexes ?? 0) };
  };
  return {
    suppressions: await size('suppressions'),
    suppression_events: await size('suppression_events'),
    event_receipts: await size('event_receipts'),
  };
}

/** The plans of the statements measured, and of the two the ingest sends for each batch. */
async function measurePlans(ctx: StepContext): Promise<Record<string, PlanSummary>> {
  const client = await ctx.bare.connect();
  try {
    const queries = listQueries(ctx);
    const present = { accountId: ctx.accountIds[0] as string, email: emailOf(0) };
    const check = randomCheck(ctx, 1);
    const explain = (run: Parameters<typeof explainFirst>[1], pick?: (text: string) => boolean) =>
      explainFirst(client, run, pick);
    const plans: Record<string, PlanSummary> = {
      lookup: await explain((db) =>
        findSuppressionsByEmails(
          db,
          { accountIds: [present.accountId], values: [present.email], scopes: [''] },
          'exact',
        ),
      ),
      check: await explain((db) =>
        findSuppressionsByEmails(
          db,
          {
            accountIds: check.emails.map(() => check.accountId),
            values: check.emails,
            scopes: check.emails.map(() => ''),
          },
          'sending',
        ),
      ),
      firstPage: await explain((db) => listSuppressions(db, queries.first)),
      deepPage: await explain((db) => listSuppressions(db, queries.deep)),
      searchDomain: await explain((db) => listSuppressions(db, queries.domain)),
      searchPrefix: await explain((db) => listSuppressions(db, queries.prefix)),
    };
    const batch = ingestBatch(ctx, 1_000_000);
    const soft = batch.filter((event) => event.bounce?.type === 'transient');
    const window = windowAround(Date.now(), SOFT_BOUNCE_RULE);
    plans.softBounceCount = await explain((db) =>
      softBouncesOf(
        db,
        soft.map((event) => ({
          account_id: event.account_id,
          email: event.email,
          counted: softBounceCategories(DEFAULT_BOUNCE_ACTIONS),
          ...window,
        })),
      ),
    );
    // EXPLAIN ANALYZE writes what it runs: the batch is recorded in a transaction rolled back.
    await client.query('BEGIN');
    try {
      plans.ingestRecord = await explain(
        (db) =>
          recordEvents(
            db,
            batch.map((event) => toEventRecord(event, DEFAULT_EVENT_POLICY)),
          ),
        (text) => text.includes('INSERT INTO event_receipts'),
      );
    } finally {
      await client.query('ROLLBACK');
    }
    return plans;
  } finally {
    client.release();
  }
}

/** Every measurement of a step, in an order where none disturbs the next: reads first, then writes. */
export async function measureStep(ctx: StepContext, log: (message: string) => void): Promise<StepFigures> {
  log('warming the cache');
  const warmed = await warmCache(ctx.bare, SOFT_BOUNCE_RULE.windowDays);
  log('plans');
  const plans = await measurePlans(ctx);
  log('lookups and checks');
  const lookups = await measureLookups(ctx);
  log('pages and searches');
  const lists = await measureLists(ctx);
  log('export');
  const exported = await measureExport(ctx);
  log('sizes');
  const sizes = await measureSizes(ctx);
  log(`ingest of ${ctx.events.toLocaleString('en-US')} events`);
  const ingest = await measureIngest(ctx);
  return { warmed, ...lookups, ...lists, export: exported, ingest, sizes, plans };
}
