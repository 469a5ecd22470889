/**
 * The check filter at each size of the scale benchmark: its build from the table, its memory, and
 * in the same turns the check of 1,000 addresses with it, without it (`CHECK_FILTER=off`: the same
 * lookups with no filter) and as the bare indexed query, with 10 % and 2 % of the addresses on the
 * list; and the lookup of a present and of an absent address the same three ways. The filter is
 * left running for the ingest that follows, which then writes beside its rounds.
 */
import { performance } from 'node:perf_hooks';
import { MAX_CHECK_ITEMS } from '../../src/contract/limits.js';
import { pruneKeyChanges } from '../../src/check-filter/change-retention.js';
import { startCheckFilter, type CheckFilter } from '../../src/check-filter/check-filter.js';
import { createLogger } from '../../src/logger.js';
import { COLUMNS } from '../../src/suppressions/suppression-repository.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import { absentEmail, emailOf } from './rows.js';
import type { StepContext } from './step.js';
import { latency, timesFor, type Latency, type Prepare } from './timing.js';

export interface ThreeWays {
  filtered: Latency;
  unfiltered: Latency;
  bare: Latency;
}

export interface FilterFigures {
  buildMs: number;
  keys: number;
  bytes: number;
  checks: ({ share: number } & ThreeWays)[];
  lookupPresent: ThreeWays;
  lookupAbsent: ThreeWays;
}

const SHARES = [0.1, 0.02];

const BARE_LOOKUP = `SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND email = $2 AND scope = ''`;
const BARE_CHECK = `SELECT ${COLUMNS} FROM suppressions WHERE account_id = $1 AND email = ANY($2::text[]) AND scope = ''`;

/** `MAX_CHECK_ITEMS` addresses of one account, `share` of them its entries (drawn over its whole list). */
function checkOf(ctx: StepContext, n: number, share: number): { accountId: string; emails: string[] } {
  const accounts = ctx.accountIds.length;
  const account = n % accounts;
  const perAccount = Math.floor((ctx.size - 1 - account) / accounts) + 1;
  const emails = Array.from({ length: MAX_CHECK_ITEMS }, (_, k) =>
    Math.random() < share
      ? emailOf(account + accounts * Math.floor(Math.random() * perAccount))
      : absentEmail(n * MAX_CHECK_ITEMS + k),
  );
  return { accountId: ctx.accountIds[account] as string, emails };
}

function addressOf(ctx: StepContext, n: number, present: boolean): { accountId: string; email: string } {
  const accounts = ctx.accountIds.length;
  if (!present) return { accountId: ctx.accountIds[n % accounts] as string, email: absentEmail(n) };
  const index = Math.floor(Math.random() * ctx.size);
  return { accountId: ctx.accountIds[index % accounts] as string, email: emailOf(index) };
}

// Three operations take turns in every order, so that none always runs on what another left in the cache.
const TURNS = ['a', 'b', 'c', 'c', 'b', 'a', 'b', 'c', 'a'] as const;
/** Where each side's inputs start: none reads the pages the others' same inputs brought in. */
const INPUTS = { a: 0, b: 1_000_000_000, c: 2_000_000_000 };

async function threeWays(ctx: StepContext, a: Prepare, b: Prepare, c: Prepare): Promise<ThreeWays> {
  const prepare = { a, b, c };
  type Run = Awaited<ReturnType<typeof timesFor>>;
  const runs = { a: [] as Run[], b: [] as Run[], c: [] as Run[] };
  const next = { ...INPUTS };
  const turnSeconds = (ctx.seconds * 3) / TURNS.length;
  for (const turn of TURNS) {
    const run = await timesFor(turnSeconds, ctx.connections, prepare[turn], next[turn]);
    next[turn] += run.times.length;
    runs[turn].push(run);
  }
  return { filtered: latency(runs.a), unfiltered: latency(runs.b), bare: latency(runs.c) };
}

/**
 * Builds the filter (after pruning the changes of the load, which no filter ever read), then
 * measures; returns the figures and the running filter, for the caller to close after the ingest.
 */
export async function measureFilter(ctx: StepContext): Promise<{ figures: FilterFigures; filter: CheckFilter }> {
  await pruneKeyChanges(ctx.db, '0 seconds');
  const started = performance.now();
  const filter = startCheckFilter({
    url: ctx.url,
    applicationName: 'bench-scale',
    statementTimeoutMs: 5000,
    db: ctx.db,
    logger: createLogger('warn'),
    // The filter alone, at each size: an entry cache would answer the sets it met before from memory.
    cacheEntries: 0,
  });
  try {
    await filter.whenReady();
    const buildMs = performance.now() - started;
    const filtered = createSuppressionLookups(ctx.db, undefined, filter);
    const unfiltered = createSuppressionLookups(ctx.db);
    const checks: FilterFigures['checks'] = [];
    for (const share of SHARES) {
      const input = (n: number) => checkOf(ctx, n, share);
      checks.push({
        share,
        ...(await threeWays(
          ctx,
          (n) => {
            const { accountId, emails } = input(n);
            return () => filtered.suppressing(accountId, emails);
          },
          (n) => {
            const { accountId, emails } = input(n);
            return () => unfiltered.suppressing(accountId, emails);
          },
          (n) => {
            const { accountId, emails } = input(n);
            return () => ctx.bare.query({ name: 'bare-check', text: BARE_CHECK, values: [accountId, emails] });
          },
        )),
      });
    }
    const lookups = (present: boolean) =>
      threeWays(
        ctx,
        (n) => {
          const { accountId, email } = addressOf(ctx, n, present);
          return () => filtered.byEmail(accountId, email);
        },
        (n) => {
          const { accountId, email } = addressOf(ctx, n, present);
          return () => unfiltered.byEmail(accountId, email);
        },
        (n) => {
          const { accountId, email } = addressOf(ctx, n, present);
          return () => ctx.bare.query({ name: 'bare-lookup', text: BARE_LOOKUP, values: [accountId, email] });
        },
      );
    const lookupPresent = await lookups(true);
    const lookupAbsent = await lookups(false);
    const { keys, bytes } = filter.status();
    return { figures: { buildMs, keys, bytes, checks, lookupPresent, lookupAbsent }, filter };
  } catch (error) {
    await filter.close();
    throw error;
  }
}
