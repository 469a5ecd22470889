/**
 * The measurements of one step of the scale benchmark, each the service's own function against the
 * bare SQL the database answers it with, in the same run: the reads (measure-reads.ts), the ingest
 * path under a soft-bounce threshold (measure-ingest.ts), sizes on disk and plans.
 */
import { DEFAULT_BOUNCE_ACTIONS } from '../../src/domain/bounce-categories.js';
import { recordEvents } from '../../src/events/event-repository.js';
import { toEventRecord } from '../../src/events/event-record.js';
import { softBouncesOf } from '../../src/events/soft-bounce-repository.js';
import { softBounceCategories, windowAround } from '../../src/policy/soft-bounce-rule.js';
import { DEFAULT_EVENT_POLICY } from '../../src/policy/settings-repository.js';
import { findSuppressionsByEmails } from '../../src/suppressions/entries-by-pairs.js';
import { listSuppressions } from '../../src/suppressions/suppression-repository.js';
import { measureFilter } from './measure-filter.js';
import { ingestBatch, measureIngest } from './measure-ingest.js';
import { listQueries, measureExport, measureLists, measureLookups, randomCheck } from './measure-reads.js';
import { explainFirst, type PlanSummary } from './plans.js';
import { emailOf } from './rows.js';
import { SOFT_BOUNCE_RULE, type StepContext, type StepFigures } from './step.js';
import { warmCache } from './warm-cache.js';

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
  log('the check filter: build, checks and lookups with it, without it and bare');
  const { figures: filter, filter: running } = await measureFilter(ctx);
  log(`ingest of ${ctx.events.toLocaleString('en-US')} events, beside the filter`);
  try {
    const ingest = await measureIngest(ctx);
    return { warmed, ...lookups, ...lists, export: exported, ingest, filter, sizes, plans };
  } finally {
    await running.close();
  }
}
