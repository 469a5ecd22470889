/**
 * A PostgreSQL primary and a streaming replica of it, both of this process's own (private-postgres.ts):
 * the primary made by `initdb` and the replica by `pg_basebackup -R` from it. A replica's first
 * start would otherwise sync every file of its copy: nothing is synced. Both are removed by
 * `remove()`, and when the start itself fails.
 */
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { oneValue, privateServers, waitFor } from './private-postgres.js';

export interface ReplicaCluster {
  /** The primary's `postgres` database; `primaryUrlFor(name)` names another of its databases. */
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  primaryUrlFor: (database: string) => string;
  replicaUrlFor: (database: string) => string;
  /** Stops the replica (fast shutdown: its open connections are cut), and starts it again. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** `pg_wal_replay_pause()` / `pg_wal_replay_resume()` on the replica: WAL still arrives, none is applied. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has applied everything the primary had written when it was called. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops both servers and deletes their directory. */
  remove: () => Promise<void>;
}

/** Starts a primary and a replica streaming from it; both answer when this resolves. */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const servers = await privateServers('sl-replica-');
  const primary = servers.server('primary', await freePort());
  const replica = servers.server('replica', await freePort());
  const primaryUrl = primary.urlFor('postgres');
  const replicaUrl = replica.urlFor('postgres');
  const replicaAnswers = async () =>
    (await oneValue<boolean>(replicaUrl, 'SELECT pg_is_in_recovery() AS value')) === true;

  try {
    await primary.initdb();
    await primary.start();
    await servers.program('pg_basebackup', [
      '-D',
      join(servers.root, 'replica'),
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
    ]);
    await replica.start();
    await waitFor('the replica did not answer in recovery', replicaAnswers);
  } catch (error) {
    await servers.remove();
    throw error;
  }

  return {
    primaryUrl,
    replicaUrl,
    primaryUrlFor: primary.urlFor,
    replicaUrlFor: replica.urlFor,
    stopReplica: () => replica.stop('fast'),
    async startReplica() {
      await replica.start();
      await waitFor('the replica did not answer after its start', replicaAnswers);
    },
    async pauseReplay() {
      await oneValue(replicaUrl, 'SELECT pg_wal_replay_pause()::text AS value');
    },
    async resumeReplay() {
      await oneValue(replicaUrl, 'SELECT pg_wal_replay_resume()::text AS value');
    },
    async caughtUp(timeoutMs = 30_000) {
      const target = await oneValue<string>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS value');
      await waitFor(
        'the replica did not replay the primary’s WAL',
        async () =>
          (await oneValue<boolean>(replicaUrl, `SELECT pg_last_wal_replay_lsn() >= '${target}'::pg_lsn AS value`)) ===
          true,
        timeoutMs,
      );
    },
    remove: servers.remove,
  };
}
