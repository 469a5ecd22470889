/**
 * The scale benchmark's reads, each the service's own function against the bare SQL the database
 * answers it with: lookups and checks of addresses drawn over the whole list, pages and searches of
 * one account, and its export.
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import { to as copyTo } from 'pg-copy-streams';
import { MAX_CHECK_ITEMS, MAX_PAGE_SIZE } from '../../src/contract/limits.js';
import { writeExport } from '../../src/export/write-export.js';
import { streamSuppressions } from '../../src/export/suppression-export.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import { COLUMNS, listSuppressions, type ListQuery } from '../../src/suppressions/suppression-repository.js';
import { SEARCH_DOMAIN, SEARCH_PREFIX, SPAN_MS, absentEmail, cursorAt, emailOf } from './rows.js';
import type { StepContext, StepFigures } from './step.js';
import { inTurns, versus } from './timing.js';

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
export function randomCheck(ctx: StepContext, n: number): { accountId: string; emails: string[] } {
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
export async function measureLookups(ctx: StepContext): Promise<Pick<StepFigures, 'lookup' | 'check'>> {
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

export function listQueries(ctx: StepContext): Record<'first' | 'deep' | 'domain' | 'prefix', ListQuery> {
  const accountId = listed(ctx);
  return {
    first: { accountId, limit: MAX_PAGE_SIZE },
    deep: { accountId, limit: MAX_PAGE_SIZE, after: deepCursor(ctx) },
    domain: { accountId, limit: MAX_PAGE_SIZE, domain: SEARCH_DOMAIN },
    prefix: { accountId, limit: MAX_PAGE_SIZE, email: { prefix: SEARCH_PREFIX } },
  };
}

export async function measureLists(
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
export async function measureExport(ctx: StepContext): Promise<StepFigures['export']> {
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
