import type { Logger } from '../logger.js';
import { createDatabase, type Database } from './database.js';
import { startReplicaMonitor, type ReplicaState } from './replica-monitor.js';

export type { ReplicaState } from './replica-monitor.js';

/** One streaming replica: its name in readiness and metrics, and its pool. */
export interface Replica {
  /** `host:port/database`, never its credentials. */
  readonly name: string;
  readonly db: Database;
}

/**
 * The read replicas of DATABASE_READ_URL, each with a pool of its own, and the monitor that says
 * which of them may be read from now.
 */
export interface ReadReplicas {
  readonly replicas: readonly Replica[];
  /** DATABASE_READ_MAX_LAG_MS: a replica further behind than this is not read from. */
  readonly maxLagMs: number;
  /** Whether any replica may be read from now. */
  anyUsable(): boolean;
  /** The next replica in turn that may be read from now, or undefined when none may. */
  pick(): Replica | undefined;
  /** Each replica's state and lag, as the last poll found them. */
  states(): ReplicaState[];
  /** Stops the monitor and closes every replica's pool. */
  close(): Promise<void>;
}

export interface ReadReplicasOptions {
  /** The primary, whose WAL position the replicas' positions are compared with. */
  primaryUrl: string;
  urls: readonly string[];
  maxLagMs: number;
  poolSize: number;
  statementTimeoutMs: number;
  applicationName: string;
  logger: Logger;
  /** How often positions are read; the default everywhere but in tests of the monitor itself. */
  pollIntervalMs?: number;
}

/** `host:port/database` of a connection string: how a replica is named where it is shown. */
export function replicaName(url: string): string {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username);
  return `${parsed.hostname}:${parsed.port || '5432'}/${database}`;
}

/**
 * Opens a pool per replica and starts the monitor; resolves once every replica was polled once, so
 * that a caught-up replica is read from at once.
 */
export async function openReadReplicas(options: ReadReplicasOptions): Promise<ReadReplicas> {
  const replicas: Replica[] = options.urls.map((url) => ({
    name: replicaName(url),
    db: createDatabase({
      url,
      poolSize: options.poolSize,
      logger: options.logger,
      applicationName: options.applicationName,
      statementTimeoutMs: options.statementTimeoutMs,
    }),
  }));
  const monitor = startReplicaMonitor({
    primaryUrl: options.primaryUrl,
    replicas: options.urls.map((url, index) => ({ name: (replicas[index] as Replica).name, url })),
    maxLagMs: options.maxLagMs,
    applicationName: options.applicationName,
    logger: options.logger,
    intervalMs: options.pollIntervalMs,
  });
  await monitor.ready;
  let next = 0;
  return {
    replicas,
    maxLagMs: options.maxLagMs,
    anyUsable: () => replicas.some((replica) => monitor.usable(replica.name)),
    pick() {
      for (let offset = 0; offset < replicas.length; offset += 1) {
        const index = (next + offset) % replicas.length;
        const replica = replicas[index] as Replica;
        if (monitor.usable(replica.name)) {
          next = (index + 1) % replicas.length;
          return replica;
        }
      }
      return undefined;
    },
    states: () => monitor.states(),
    async close() {
      await monitor.stop();
      await Promise.all(replicas.map((replica) => replica.db.close()));
    },
  };
}
