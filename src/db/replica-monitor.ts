import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { parseLsn, PrimaryTimeline, REPLICA_POLL_INTERVAL_MS } from './replica-lag.js';

/** A replica as readiness and the metrics show it. */
export type ReplicaCondition = 'ok' | 'lagging' | 'down';

export interface ReplicaState {
  /** `host:port/database`: where it is, never its credentials. */
  replica: string;
  state: ReplicaCondition;
  /** Its lag in ms; null while it does not answer. */
  lagMs: number | null;
}

/** What the last poll of a replica found. */
interface Measurement {
  up: boolean;
  /** The newest time of this process's clock by which every commit of the primary is on the replica. */
  caughtUpTo: number | undefined;
  /** Whether the replica had replayed past the newest sample of the primary. */
  atNewest: boolean;
  /** Its lag as the poll measured it. */
  lagMs: number;
  polledAt: number;
}

export interface MonitoredServer {
  name: string;
  url: string;
}

/** A probe can take this long before it counts as no answer. */
const PROBE_TIMEOUT_MS = 1000;

const PRIMARY_SQL = `SELECT pg_current_wal_lsn()::text AS lsn`;
const REPLICA_SQL = `SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS replay`;

/** One connection per server for the probes, so that a busy read pool never delays a measurement. */
function probePool(url: string, applicationName: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
    statement_timeout: PROBE_TIMEOUT_MS,
    application_name: applicationName,
  });
  // A lost probe connection shows as the next probe's failure; unheard, it would end the process.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `task` every `intervalMs`, never two at once, until stopped. */
function repeat(intervalMs: number, task: () => Promise<void>): { first: Promise<void>; stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = (): void => {
    const startedAt = performance.now();
    // Tasks report their own failures; the loop only keeps time.
    running = task().finally(() => {
      if (stopped) return;
      timer = setTimeout(run, Math.max(0, intervalMs - (performance.now() - startedAt)));
      timer.unref();
    });
  };
  run();
  return {
    first: running,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export interface ReplicaMonitor {
  /** Whether reads may go to this replica now: it answers and is no further behind than the bound. */
  usable(name: string, now?: number): boolean;
  states(): ReplicaState[];
  /** Resolves once the primary and every replica were polled once. */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Polls the primary's WAL position and each replica's replay position every 200 ms, each on a loop
 * of its own, so that a replica that hangs delays no other measurement.
 */
export function startReplicaMonitor(options: {
  primaryUrl: string;
  replicas: readonly MonitoredServer[];
  maxLagMs: number;
  applicationName: string;
  logger: Logger;
  intervalMs?: number;
}): ReplicaMonitor {
  const { maxLagMs, logger } = options;
  const intervalMs = options.intervalMs ?? REPLICA_POLL_INTERVAL_MS;
  const timeline = new PrimaryTimeline();
  const probeName = `${options.applicationName}-replica-monitor`;
  const primaryProbe = probePool(options.primaryUrl, probeName);
  const measurements = new Map<string, Measurement>();
  const reported = new Map<string, ReplicaCondition>();

  const usableAt = (measurement: Measurement | undefined, now: number): boolean =>
    measurement !== undefined &&
    measurement.up &&
    measurement.caughtUpTo !== undefined &&
    now - measurement.caughtUpTo <= maxLagMs;

  const stateOf = (name: string, now: number): ReplicaState => {
    const measurement = measurements.get(name);
    if (!measurement?.up) return { replica: name, state: 'down', lagMs: null };
    let lagMs: number;
    if (measurement.atNewest && now - measurement.polledAt <= maxLagMs) lagMs = 0;
    else if (measurement.caughtUpTo !== undefined) lagMs = now - measurement.caughtUpTo;
    else lagMs = measurement.lagMs + (now - measurement.polledAt);
    return { replica: name, state: usableAt(measurement, now) ? 'ok' : 'lagging', lagMs: Math.round(lagMs) };
  };

  // Operators hear of a replica's change of state once, not at every poll.
  const tell = (name: string): void => {
    const { state, lagMs } = stateOf(name, performance.now());
    if (reported.get(name) === state) return;
    reported.set(name, state);
    if (state === 'ok') logger.info({ replica: name }, 'read replica in use');
    else logger.warn({ replica: name, state, lag_ms: lagMs }, 'read replica not in use: reads go to the primary');
  };

  const samplePrimary = async (): Promise<void> => {
    const askedAt = performance.now();
    try {
      const { rows } = await primaryProbe.query<{ lsn: string }>(PRIMARY_SQL);
      if (rows[0]) timeline.record(askedAt, parseLsn(rows[0].lsn));
    } catch (error) {
      // No sample: the replicas' measured positions age, and past the bound they are not used.
      logger.debug({ err: error }, 'primary WAL position not read');
    }
  };

  const pollReplica = (server: MonitoredServer, probe: pg.Pool) => async (): Promise<void> => {
    let measurement: Measurement;
    try {
      const { rows } = await probe.query<{ recovering: boolean; replay: string | null }>(REPLICA_SQL);
      const row = rows[0];
      const polledAt = performance.now();
      // A server out of recovery was promoted or is not a replica: what it holds is no longer the
      // primary's, so it is not read from.
      if (!row?.recovering || row.replay === null || timeline.empty) {
        measurement = { up: row?.recovering === true, caughtUpTo: undefined, atNewest: false, lagMs: 0, polledAt };
      } else {
        const position = timeline.position(parseLsn(row.replay), polledAt);
        measurement = { up: true, ...position, polledAt };
      }
    } catch {
      measurement = { up: false, caughtUpTo: undefined, atNewest: false, lagMs: 0, polledAt: performance.now() };
    }
    measurements.set(server.name, measurement);
    tell(server.name);
  };

  const primaryLoop = repeat(intervalMs, samplePrimary);
  const probes = options.replicas.map((server) => ({ server, probe: probePool(server.url, probeName) }));
  // The replicas' first polls wait for the primary's first sample, so that a caught-up replica is
  // in use as soon as the monitor is ready.
  const replicaLoops = probes.map(({ server, probe }) => {
    let loop: ReturnType<typeof repeat> | undefined;
    const started = primaryLoop.first.then(() => {
      loop = repeat(intervalMs, pollReplica(server, probe));
      return loop.first;
    });
    const stop = async (): Promise<void> => {
      await started;
      await loop?.stop();
    };
    return { started, stop };
  });

  return {
    usable: (name, now = performance.now()) => usableAt(measurements.get(name), now),
    states: () => {
      const now = performance.now();
      return options.replicas.map((server) => stateOf(server.name, now));
    },
    ready: Promise.all(replicaLoops.map((loop) => loop.started)).then(() => undefined),
    async stop() {
      await primaryLoop.stop();
      await Promise.all(replicaLoops.map((loop) => loop.stop()));
      await Promise.all([primaryProbe, ...probes.map(({ probe }) => probe)].map((pool) => pool.end()));
    },
  };
}
