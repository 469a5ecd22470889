import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Queue } from 'bullmq';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, type Config } from '../../src/config.js';
import { createEventProducer } from '../../src/events/event-producer.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { connectRedis, redisEndpoint, type RedisClient } from '../../src/redis.js';
import { formatFailedEventsJson, formatFailedEventsTable, listFailedEvents } from '../events/failed-events.js';
import { describeInvalidLine, describePublishSummary, publishEvents } from '../events/publish-events.js';
import { retryAllFailedEvents, retryFailedEvents, type RetryResult } from '../events/retry-events.js';
import type { CliContext } from '../cli-context.js';
import { producerSettings } from '../../src/producer-queue.js';

function wholeNumber(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

/**
 * A producer-style connection (a command fails after a few tries instead of waiting out an
 * outage), checked first: BullMQ itself waits for Redis to come up however long that takes.
 */
async function withRedis(config: Config, work: (connection: RedisClient) => Promise<void>): Promise<void> {
  const connection = await connectRedis(redisEndpoint(config));
  try {
    await work(connection);
  } finally {
    connection.disconnect();
  }
}

/** The events queue of QUEUE_PREFIX, closed when `work` is done. */
async function withEventsQueue(context: CliContext, work: (queue: Queue) => Promise<void>): Promise<void> {
  const config = loadConfig(context.env);
  await withRedis(config, async (connection) => {
    const queue = new Queue(EVENTS_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
    // Connection trouble surfaces as the failed command's own error; unheard, it would be printed again.
    queue.on('error', () => undefined);
    try {
      await work(queue);
    } finally {
      await queue.close();
    }
  });
}

function openInput(context: CliContext, file: string): Readable {
  return file === '-' ? context.stdin : createReadStream(file);
}

async function publish(context: CliContext, file: string): Promise<void> {
  const config = loadConfig(context.env);
  await withRedis(config, async (connection) => {
    const producer = createEventProducer({ connection, ...producerSettings(config) });
    const input = openInput(context, file);
    try {
      const summary = await publishEvents(input, producer, {
        onInvalid: (problem) => context.stderr.write(`${describeInvalidLine(problem)}\n`),
      });
      context.stdout.write(`${describePublishSummary(summary)}\n`);
      if (summary.invalid > 0) context.exitCode = 1;
    } finally {
      if (input !== context.stdin) input.destroy();
      await producer.close();
    }
  });
}

function describeRetry(result: RetryResult): string {
  const count = result.retried.length;
  const lines = [`Retried ${count} failed event${count === 1 ? '' : 's'}.`];
  if (result.notFound.length > 0) lines.push(`Not found: ${result.notFound.join(', ')}`);
  if (result.notFailed.length > 0) {
    lines.push(`Not failed, not retried: ${result.notFailed.map(({ id, state }) => `${id} (${state})`).join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}

export function eventsCommand(context: CliContext): Command {
  const events = new Command('events').description(
    'publish bounce and complaint events, and inspect and retry failed ones',
  );

  events
    .command('publish')
    .description('queue bounce and complaint events from NDJSON, one event per line')
    .argument('<file>', 'an NDJSON file, or - for standard input')
    .addHelpText(
      'after',
      `
Lines are read one at a time, so a file of any size takes little memory. Blank lines are skipped.
A line that is not JSON or not a valid event is reported on stderr as "line <n>: <reason>"
(lines count from 1) and not queued; every valid line is still queued. The exit code is then 1,
so scripts notice; it is 0 when every line was valid and queued. Publishing a file again is safe:
an event still in the queue (same account_id and event_id) adds no second job, and the workers
record an event once.`,
    )
    .action(async (file: string) => {
      await publish(context, file);
    });

  events
    .command('failed')
    .description(`list failed jobs of the ${EVENTS_QUEUE} queue, newest first`)
    .option('--limit <n>', 'how many to show', wholeNumber, 20)
    .option(
      '--json',
      'print one JSON object per line: {"id","name","attempts_made","failed_at","failed_reason","data"}',
    )
    .action(async (options: { limit: number; json?: boolean }) => {
      await withEventsQueue(context, async (queue) => {
        const page = await listFailedEvents(queue, options.limit);
        context.stdout.write(options.json ? formatFailedEventsJson(page) : formatFailedEventsTable(page));
      });
    });

  events
    .command('retry')
    .description('move failed jobs back to waiting, so the workers process them again')
    .argument('[job-id...]', 'ids of failed jobs, as `events failed` shows them')
    .option('--all', 'retry every failed job')
    .addHelpText(
      'after',
      `
Give job ids or --all, not both. The exit code is 1 when a given id names no job or a job that
is not failed (it is listed); those are left as they are. --all retries the jobs that were failed
when it began, a page at a time; a job that fails again meanwhile stays failed.`,
    )
    .action(async (ids: string[], options: { all?: boolean }) => {
      if (options.all && ids.length > 0) throw new Error('Give job ids or --all, not both.');
      if (!options.all && ids.length === 0)
        throw new Error('Give the ids of the jobs to retry (see `events failed`), or --all.');
      await withEventsQueue(context, async (queue) => {
        if (options.all) {
          const { retried, remaining } = await retryAllFailedEvents(queue);
          context.stdout.write(`Retried ${retried} failed event${retried === 1 ? '' : 's'}.\n`);
          if (remaining > 0)
            context.stdout.write(
              `${remaining} still failed (they failed after the retry began, or could not be retried).\n`,
            );
          return;
        }
        const result = await retryFailedEvents(queue, ids);
        context.stdout.write(describeRetry(result));
        if (result.notFound.length > 0 || result.notFailed.length > 0) context.exitCode = 1;
      });
    });

  return events;
}
