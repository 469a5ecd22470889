import { loadConfig, SERVER_TIMEOUTS, type Config } from './config.js';
import { checkProductionSettings } from './production-settings.js';
import { createDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { createMonthPartitions } from './db/month-partitions.js';
import { openReadReplicas, type ReadReplicas } from './db/read-replicas.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { startTracing, stopTracing } from './tracing/tracing.js';
import { oldestUndeliveredChangeAge } from './webhooks/delivery-repository.js';

export interface Runtime {
  config: Config;
  logger: Logger;
  db: Database;
  /** One registry per process: `npm start` shares it between the API and the workers. */
  metrics: Metrics;
  /** DATABASE_READ_URL's replicas, for a runtime opened with `readReplicas` while it is set. */
  replicas?: ReadReplicas | undefined;
}

export interface RuntimeOptions {
  /**
   * Where logs go: stdout for services; stderr, or the stream a command was given, for commands
   * whose stdout is their output.
   */
  logTo?: Parameters<typeof createLogger>[1];
  /** The environment the configuration is read from; the process's own by default. */
  env?: NodeJS.ProcessEnv;
  poolSize?: number;
  /** Opens DATABASE_READ_URL's replicas and their monitor: for the API, whose reads use them. */
  readReplicas?: boolean;
  /** A service process (the API, the workers): in production its settings are checked before anything opens. */
  service?: boolean;
}

/** Config, logger and a migrated database: what every process that touches the database starts from. */
export async function openRuntime(applicationName: string, options: RuntimeOptions = {}): Promise<Runtime> {
  const config = loadConfig(options.env);
  if (options.service === true) checkProductionSettings(config);
  // OTEL_* variables are OpenTelemetry's own, read by its SDK; the service name is the process's.
  // Started before the logger, whose lines then carry the trace they were written in.
  const tracing = await startTracing(applicationName, config);
  const logger = createLogger(config.LOG_LEVEL, options.logTo);
  if (tracing) logger.info('exporting traces (OpenTelemetry)');
  const applied = await migrate(config.DATABASE_URL, logger);
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
  const poolSize = options.poolSize ?? config.DATABASE_POOL_SIZE;
  const db = createDatabase({
    url: config.DATABASE_URL,
    poolSize,
    logger,
    applicationName,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  // Every process that starts makes sure this month's and next month's partitions exist, so writes
  // never wait on the maintenance worker's schedule; a failure here is that job's to retry.
  await createMonthPartitions(db).catch((error: unknown) =>
    logger.warn({ err: error }, 'could not create the month partitions ahead'),
  );
  const metrics = createMetrics();
  metrics.trackPool(db.pool);
  metrics.trackWebhookBacklog(() => oldestUndeliveredChangeAge(db));
  if (!options.readReplicas || config.DATABASE_READ_URL === undefined) return { config, logger, db, metrics };
  const replicas = await openReadReplicas({
    primaryUrl: config.DATABASE_URL,
    urls: config.DATABASE_READ_URL,
    maxLagMs: config.DATABASE_READ_MAX_LAG_MS,
    poolSize,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    applicationName,
    logger,
  });
  metrics.trackReplicas(replicas);
  return { config, logger, db, metrics, replicas };
}

/** Closes the runtime's replicas (their monitor first) and then its pool: the last step of a stop. */
export async function closeDatabases({ db, replicas }: Pick<Runtime, 'db' | 'replicas'>): Promise<void> {
  await replicas?.close();
  await db.close();
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits; a second signal, or a stop that takes longer
 * than `graceMs`, exits at once.
 */
export function stopOnSignals(
  logger: Logger,
  stop: () => Promise<void>,
  graceMs: number = SERVER_TIMEOUTS.processGraceMs,
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long, exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    // The spans of the stop itself are exported last, with whatever the exporter still holds.
    stop()
      .finally(() => stopTracing().catch(() => undefined))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/** Runs an entry point; a failure to start prints one clear line instead of a stack trace. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  });
}
