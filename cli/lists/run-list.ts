import type { Readable } from 'node:stream';
import { createBatchProducer } from '../../src/batches/batch-producer.js';
import type { Account } from '../../src/accounts/account-repository.js';
import type { GivenOrigin as Origin } from '../../src/domain/origins.js';
import { connectRedis, type RedisEndpoint } from '../../src/redis.js';
import { openBatchWaiter, type BatchTotals, type BatchWaiter } from './batch-waiter.js';
import { createListProgress, type ListCounts } from './list-progress.js';
import type { ListFormat } from '../../src/lists/list-format.js';
import { describeHeader, describeInvalidLine, formatListReport, listExitCode } from './list-report.js';
import { queueList, type ListOperation, type QueueSummary } from '../../src/lists/queue-list.js';
import { readAddresses } from '../../src/lists/read-addresses.js';

export interface ListRun {
  operation: 'add' | 'remove';
  account: Account;
  /** For `add`; default manual. */
  origin?: Origin;
  /** The named scope of the entries; the whole account's when absent. */
  scope?: string | undefined;
  /** For `remove`: removes entries a complaint put on the list too (with a reason). */
  force?: boolean | undefined;
  /** For `remove`: why, kept in each removed entry's history. */
  reason?: string | undefined;
  input: Readable;
  /** Size in bytes and bytes read so far, when known, for the progress bar. */
  inputSize?: { total: number; read(): number };
  format: ListFormat;
  /** Wait for every job to finish and report their totals. */
  wait: boolean;
}

export interface ListRunContext {
  redis: RedisEndpoint;
  prefix: string;
  /** Replicas that must hold each batch job before it counts as queued (REDIS_WAIT_REPLICAS). */
  replicas?: number;
  stdout: NodeJS.WritableStream;
  /** Invalid lines and progress. */
  stderr: NodeJS.WritableStream;
  /** A progress bar on stderr; plain progress lines otherwise. */
  tty: boolean;
  /** Plain progress: a line every this many jobs. Default 10. */
  progressEvery?: number;
  /** Invalid lines printed before the rest are only counted. Default 1000. */
  maxInvalidShown?: number;
}

export interface ListRunReport {
  summary: QueueSummary;
  totals: BatchTotals | null;
  exitCode: 0 | 1;
}

/**
 * Reads a list and queues it in batch jobs, reporting invalid lines and progress on stderr as it
 * goes and the outcome on stdout; with `wait`, waits for the jobs and reports their totals.
 */
export async function runList(run: ListRun, context: ListRunContext): Promise<ListRunReport> {
  const maxInvalidShown = context.maxInvalidShown ?? 1000;
  const operation: ListOperation =
    run.operation === 'add'
      ? { kind: 'add', accountId: run.account.id, origin: run.origin ?? 'manual', scope: run.scope }
      : { kind: 'remove', accountId: run.account.id, force: run.force, reason: run.reason, scope: run.scope };
  const connection = await connectRedis(context.redis);
  const producer = createBatchProducer({ connection, prefix: context.prefix, replicas: context.replicas ?? 0 });
  let waiter: BatchWaiter | undefined;
  const progress = createListProgress({
    stream: context.stderr,
    tty: context.tty,
    waiting: run.wait,
    totalBytes: run.inputSize?.total,
    every: context.progressEvery,
    noun: run.operation === 'add' ? ['address', 'addresses'] : ['entry', 'entries'],
  });
  let summary: Readonly<QueueSummary> = { lines: 0, invalid: 0, queued: 0, duplicates: 0, jobs: 0 };
  const counts = (): ListCounts => ({
    ...summary,
    processed: waiter?.processed,
    finished: waiter?.finished,
    bytesRead: run.inputSize?.read(),
  });
  try {
    // Listening starts before the first job is queued, so no job's end goes unheard.
    if (run.wait) {
      const onChange = (): void => progress.update(counts());
      waiter = await openBatchWaiter({ redis: context.redis, connection, prefix: context.prefix, onChange });
    }
    let invalid = 0;
    const entries = readAddresses(run.input, {
      format: run.format,
      ids: run.operation === 'remove',
      onHeader: (header) => progress.log(`${describeHeader(header)}\n`),
    });
    summary = await queueList(entries, producer, operation, {
      onInvalid: (problem) => {
        invalid += 1;
        if (invalid <= maxInvalidShown) progress.log(`${describeInvalidLine(problem)}\n`);
      },
      onJob: (job) => waiter?.follow(job),
      onProgress: (now) => {
        summary = now;
        progress.update(counts());
      },
    });
    if (invalid > maxInvalidShown) progress.log(`... and ${invalid - maxInvalidShown} more invalid lines, not shown\n`);
    progress.update(counts());
    const totals = waiter ? await waiter.done() : null;
    progress.update(counts());
    progress.stop();
    const account = `"${run.account.name}" (${run.account.id})`;
    context.stdout.write(formatListReport({ operation: run.operation, account, summary, totals }));
    return { summary, totals, exitCode: listExitCode(summary, totals) };
  } finally {
    progress.stop();
    await waiter?.close();
    await producer.close();
    connection.disconnect();
  }
}
