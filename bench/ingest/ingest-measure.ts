/**
 * The measurement of bench:ingest, shared with `npm run bench`: the event worker's throughput (BullMQ +
 * validation + PostgreSQL writes) against BullMQ with an empty processor, in one run, on a fresh
 * database and fresh queue prefixes.
 */
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import type { Config } from '../../src/config.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { createEventProducer } from '../../src/events/event-producer.js';
import { eventJobId } from '../../src/events/job-id.js';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import type { Logger } from '../../src/logger.js';
import { DEFAULT_JOB_OPTIONS, EVENTS_QUEUE, KEEP_COMPLETED, KEEP_FAILED } from '../../src/queues.js';
import { createRedis } from '../../src/redis.js';
import { startEventWorker, type EventWorker } from '../../workers/event-worker.js';
import { countRows, createAccounts, createBenchDatabase } from '../common/bench-database.js';
import { inPhase, type CleanupStack } from '../common/cleanup.js';
import { timeUntilCompleted, type CompletionTiming } from './completions.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import type { BounceClassifier } from '../../src/events/event-decision.js';
import { labelRule } from '../common/label-rule.js';
import { expectedOutcome, generateEvents, type ExpectedOutcome } from '../common/event-fixtures.js';
import { deletePrefix, freshPrefix } from '../common/redis-prefix.js';
import { verifyIngest } from './verify-ingest.js';
import { toEventRecord } from '../../src/events/event-record.js';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import { DEFAULT_EVENT_POLICY } from '../../src/policy/settings-repository.js';
import { plannedRows, startCopyFloorWorker, type PlannedRows } from './copy-floor.js';
import { startWebhookLoad, type WebhookFigures } from './webhook-load.js';

export const INGEST_ACCOUNTS = 1000;
/** Alternating rounds of each kind in a measurement (see `Settings.rounds`). */
export const INGEST_ROUNDS = 4;
const ENQUEUE_CHUNK = 1000;

export interface Settings {
  events: number;
  concurrency: number;
  /** Undefined: the event worker's own default. */
  batchSize: number | undefined;
  batchDelayMs: number | undefined;
  batchesInFlight: number | undefined;
  poolSize: number;
  timeoutS: number;
  /**
   * The events are split into this many slices, measured in alternating order (baseline then
   * service, service then baseline, ...), so both see the same drift in a shared machine's load.
   */
  rounds: number;
  /**
   * Accounts given a webhook (the first `webhooks` of them): both change events, to a receiver on
   * loopback, with the webhook worker
   * running beside the event worker: what delivery costs the ingest.
   */
  webhooks: number;
  /** Whether the webhook worker runs during the ingest (as in a worker process) or only between rounds. */
  deliverBeside: boolean;
  /** Every account's soft-bounce threshold (window 7 days), or null for none. */
  softBounceThreshold: number | null;
  /** How the event worker classifies bounces: the service's classifier, or the label rule it had before. */
  classifier: 'classifier' | 'label';
}

const classifierOf = (settings: Settings): BounceClassifier | undefined =>
  settings.classifier === 'label' ? labelRule : undefined;

export interface Phase {
  enqueueMs: number;
  run: CompletionTiming;
}

/**
 * A worker other than the service's on the same jobs (name, data size, job id, job options), with the
 * same worker options and concurrency: BullMQ alone with an empty processor, the ceiling any
 * processor on this queue can reach here, or the COPY floor (copy-floor.ts).
 */
async function measureBare(
  config: Config,
  settings: Settings,
  events: readonly SuppressionEventInput[],
  deadline: Deadline,
  cleanup: CleanupStack,
  floor: { db: Database; planned: PlannedRows } | null,
): Promise<Phase> {
  const prefix = freshPrefix(floor ? 'floor' : 'noop');
  const admin = createRedis(config.REDIS_URL, 'producer');
  cleanup.push('quit admin connection', () => admin.quit());
  cleanup.push(`delete ${prefix} keys`, () => deletePrefix(admin, prefix));

  const queueConnection = createRedis(config.REDIS_URL, 'producer');
  cleanup.push('quit queue connection', () => queueConnection.quit());
  const queue = new Queue(EVENTS_QUEUE, {
    connection: queueConnection,
    prefix,
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  });
  cleanup.push('close queue', async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  const enqueueStart = performance.now();
  for (let start = 0; start < events.length; start += ENQUEUE_CHUNK) {
    const chunk = events.slice(start, start + ENQUEUE_CHUNK).map((event) => ({
      name: 'bounce',
      data: event,
      opts: { jobId: eventJobId(event.account_id, event.event_id) },
    }));
    await beforeDeadline(deadline, queue.addBulk(chunk));
  }
  const enqueueMs = performance.now() - enqueueStart;

  const workerConnection = createRedis(config.REDIS_URL, 'worker');
  cleanup.push('quit worker connection', () => workerConnection.quit());
  let close: () => Promise<void> = () => Promise.resolve();
  const timed = timeUntilCompleted(
    floor ? 'COPY floor worker' : 'BullMQ no-op worker',
    () => {
      if (floor) {
        const copying = startCopyFloorWorker(
          { connection: workerConnection, prefix, concurrency: settings.concurrency, queue: EVENTS_QUEUE },
          floor.db,
          floor.planned,
        );
        close = () => copying.close();
        return copying.worker;
      }
      const worker = new Worker(EVENTS_QUEUE, () => Promise.resolve(), {
        connection: workerConnection,
        prefix,
        concurrency: settings.concurrency,
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      });
      close = () => worker.close();
      return worker;
    },
    events.length,
    deadline.signal,
  );
  cleanup.push('close worker', () => close());
  return { enqueueMs, run: await timed.finished };
}

/** The real producer, the real event worker, the real database; timed the same way as the baseline. */
async function measureService(
  config: Config,
  settings: Settings,
  db: Database,
  logger: Logger,
  events: readonly SuppressionEventInput[],
  deadline: Deadline,
  cleanup: CleanupStack,
): Promise<Phase> {
  const prefix = freshPrefix('service');
  const admin = createRedis(config.REDIS_URL, 'producer');
  cleanup.push('quit admin connection', () => admin.quit());
  cleanup.push(`delete ${prefix} keys`, () => deletePrefix(admin, prefix));

  const producer = createEventProducer({ connection: config.REDIS_URL, prefix, chunkSize: ENQUEUE_CHUNK });
  cleanup.push('close producer', () => producer.close());
  const enqueueStart = performance.now();
  await beforeDeadline(deadline, producer.publishMany(events));
  const enqueueMs = performance.now() - enqueueStart;

  const workerConnection = createRedis(config.REDIS_URL, 'worker');
  cleanup.push('quit worker connection', () => workerConnection.quit());
  let eventWorker: EventWorker | undefined;
  const timed = timeUntilCompleted(
    'event worker',
    () => {
      eventWorker = startEventWorker(
        { ...config, QUEUE_PREFIX: prefix, WORKER_CONCURRENCY: settings.concurrency },
        { db, logger, connection: workerConnection, classify: classifierOf(settings) },
        {
          batchSize: settings.batchSize,
          batchDelayMs: settings.batchDelayMs,
          batchesInFlight: settings.batchesInFlight,
        },
      );
      return eventWorker.worker;
    },
    events.length,
    deadline.signal,
  );
  cleanup.push('close event worker', () => eventWorker?.close() ?? Promise.resolve());
  return { enqueueMs, run: await timed.finished };
}

/** Rounds of one kind as one phase: times and jobs summed, CPU per job and loop busy weighted. */
export function combinePhases(phases: readonly Phase[]): Phase {
  const completed = phases.reduce((sum, phase) => sum + phase.run.completed, 0);
  const elapsedMs = phases.reduce((sum, phase) => sum + phase.run.elapsedMs, 0);
  const weighted = (value: (phase: Phase) => number, weight: (phase: Phase) => number, total: number): number =>
    total > 0 ? phases.reduce((sum, phase) => sum + value(phase) * weight(phase), 0) / total : 0;
  return {
    enqueueMs: phases.reduce((sum, phase) => sum + phase.enqueueMs, 0),
    run: {
      elapsedMs,
      completed,
      jobsPerSecond: elapsedMs > 0 ? (completed * 1000) / elapsedMs : 0,
      retriedAttempts: phases.reduce((sum, phase) => sum + phase.run.retriedAttempts, 0),
      processCpuUsPerJob: weighted(
        (phase) => phase.run.processCpuUsPerJob,
        (phase) => phase.run.completed,
        completed,
      ),
      eventLoopBusy: weighted(
        (phase) => phase.run.eventLoopBusy,
        (phase) => phase.run.elapsedMs,
        elapsedMs,
      ),
    },
  };
}

export interface IngestMeasurement {
  databaseName: string;
  expected: ExpectedOutcome;
  baseline: Phase;
  /** The same rows by COPY (copy-floor.ts); absent under a soft-bounce threshold, which it does not apply. */
  floor?: Phase;
  service: Phase;
  /** Service jobs/s over baseline jobs/s. */
  ratio: number;
  /** Service jobs/s over the COPY floor's. */
  floorRatio?: number;
  problems: string[];
  warnings: string[];
  /** With webhooks: what the receiver got once every change was delivered. */
  webhooks?: WebhookFigures;
}

/** A second fresh database with the same accounts, for the COPY floor, and the rows it is to write. */
async function floorDatabase(
  config: Config,
  settings: Settings,
  logger: Logger,
  accountIds: readonly string[],
  events: readonly SuppressionEventInput[],
  deadline: Deadline,
  cleanup: CleanupStack,
): Promise<{ db: Database; planned: PlannedRows }> {
  const bench = await beforeDeadline(deadline, createBenchDatabase(config.DATABASE_URL, logger));
  cleanup.push(`drop database ${bench.name}`, () => bench.drop());
  const db = createDatabase({ url: bench.url, poolSize: settings.poolSize, logger, applicationName: 'bench-floor' });
  cleanup.push('close floor database pool', () => db.close());
  await db.query({
    text: `INSERT INTO accounts (id, name) SELECT id, 'floor-' || id FROM unnest($1::uuid[]) AS id`,
    values: [accountIds],
  });
  const classify = classifierOf(settings);
  const records = events.map((event) => toEventRecord(parseSuppressionEvent(event), DEFAULT_EVENT_POLICY, classify));
  return { db, planned: plannedRows(records) };
}

/** The floor stored every planned row, so its rate is that of the whole work. */
async function verifyFloor(floor: { db: Database; planned: PlannedRows }): Promise<string[]> {
  const entries = [...floor.planned.values()].filter(({ entry }) => entry).length;
  const [records, stored] = [
    await countRows(floor.db, 'suppression_events'),
    await countRows(floor.db, 'suppressions'),
  ];
  const problems: string[] = [];
  if (records !== floor.planned.size) problems.push(`COPY floor: ${records} records, expected ${floor.planned.size}`);
  if (stored !== entries) problems.push(`COPY floor: ${stored} entries, expected ${entries}`);
  return problems;
}

/** The phases on a fresh database (dropped by `cleanup`), then the database checked against the events. */
export async function measureIngest(
  config: Config,
  settings: Settings,
  logger: Logger,
  deadline: Deadline,
  cleanup: CleanupStack,
  onReady: (info: { databaseName: string; expected: ExpectedOutcome }) => void = () => undefined,
): Promise<IngestMeasurement> {
  const bench = await beforeDeadline(deadline, createBenchDatabase(config.DATABASE_URL, logger));
  cleanup.push(`drop database ${bench.name}`, () => bench.drop());
  const db = createDatabase({ url: bench.url, poolSize: settings.poolSize, logger, applicationName: 'bench-ingest' });
  cleanup.push('close database pool', () => db.close());

  const accountIds = await beforeDeadline(deadline, createAccounts(db, INGEST_ACCOUNTS));
  // The accounts' threshold is the one asked for (in 7 days), else off, whatever the service's
  // default: the figures then compare with runs made before that default, and the no-threshold
  // runs with the floor, which applies no threshold either.
  await db.query({
    text: `INSERT INTO account_settings (account_id, soft_bounce_threshold, soft_bounce_window_days)
           SELECT unnest($1::uuid[]), $2, 7`,
    values: [accountIds, settings.softBounceThreshold],
  });
  const events = generateEvents(accountIds, settings.events);
  const expected = expectedOutcome(events, settings.softBounceThreshold, classifierOf(settings));
  const floor =
    settings.softBounceThreshold === null
      ? await floorDatabase(config, settings, logger, accountIds, events, deadline, cleanup)
      : null;
  onReady({ databaseName: bench.name, expected });
  const subscribed = accountIds.slice(0, Math.min(settings.webhooks, accountIds.length));
  const webhookLoad =
    subscribed.length > 0
      ? await beforeDeadline(
          deadline,
          startWebhookLoad(config, db, logger, subscribed, settings.deliverBeside, cleanup),
        )
      : undefined;
  // Deliveries owed after the first n events: one per new entry of a subscribed account.
  const subscribedSet = new Set(subscribed);
  const deliveriesOwed = (n: number): number =>
    expectedOutcome(
      events.slice(0, n).filter((event) => subscribedSet.has(event.account_id)),
      settings.softBounceThreshold,
      classifierOf(settings),
    ).suppressions;

  const rounds = Math.max(1, Math.min(settings.rounds, events.length));
  const sliceSize = Math.ceil(events.length / rounds);
  const baselineRounds: Phase[] = [];
  const floorRounds: Phase[] = [];
  const serviceRounds: Phase[] = [];
  const webhookRounds: WebhookFigures[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const slice = events.slice(round * sliceSize, (round + 1) * sliceSize);
    const measureBaselineRound = async () =>
      baselineRounds.push(
        await inPhase('baseline', logger, (phaseCleanup) =>
          measureBare(config, settings, slice, deadline, phaseCleanup, null),
        ),
      );
    const measureFloorRound = async () => {
      if (floor) {
        floorRounds.push(
          await inPhase('floor', logger, (phaseCleanup) =>
            measureBare(config, settings, slice, deadline, phaseCleanup, floor),
          ),
        );
      }
    };
    const measureServiceRound = async () => {
      serviceRounds.push(
        await inPhase('service', logger, (phaseCleanup) =>
          measureService(config, settings, db, logger, slice, deadline, phaseCleanup),
        ),
      );
      // Deliveries finish before the next round, so none of them run while the baseline is measured.
      if (webhookLoad) {
        webhookRounds.push(await webhookLoad.drain(deliveriesOwed((round + 1) * sliceSize), deadline));
      }
    };
    // Each kind goes first, second and last in turn.
    const kinds = [measureBaselineRound, measureFloorRound, measureServiceRound];
    const order = [...kinds.slice(round % kinds.length), ...kinds.slice(0, round % kinds.length)];
    for (const measure of order) await measure();
  }
  const baseline = combinePhases(baselineRounds);
  const service = combinePhases(serviceRounds);
  const last = webhookRounds[webhookRounds.length - 1];
  const webhooks = last && { ...last, drainMs: webhookRounds.reduce((sum, figures) => sum + figures.drainMs, 0) };
  const { problems, warnings } = await beforeDeadline(
    deadline,
    verifyIngest(db, expected, settings.softBounceThreshold !== null),
  );
  if (floor) problems.push(...(await verifyFloor(floor)));
  // Every new entry is announced once: as many distinct deliveries as entries.
  if (webhooks && webhooks.delivered !== webhooks.expected) {
    problems.push(`webhook deliveries: ${webhooks.delivered}, expected ${webhooks.expected}`);
  }
  const ratio = service.run.jobsPerSecond / baseline.run.jobsPerSecond;
  const floorPhase = floorRounds.length > 0 ? combinePhases(floorRounds) : undefined;
  return {
    databaseName: bench.name,
    expected,
    baseline,
    ...(floorPhase ? { floor: floorPhase, floorRatio: service.run.jobsPerSecond / floorPhase.run.jobsPerSecond } : {}),
    service,
    ratio,
    problems,
    warnings,
    ...(webhooks ? { webhooks } : {}),
  };
}
