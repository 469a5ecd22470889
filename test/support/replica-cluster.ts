/**
 * A PostgreSQL primary and a streaming replica of it, both of this process's own: two clusters of
 * the installed PostgreSQL made with Debian's `pg_createcluster` on free ports of 127.0.0.1 (trust
 * authentication), the replica filled by `pg_basebackup -R` from the primary. Run as root: the
 * `pg_*` wrappers run the servers as the `postgres` user, and `pg_basebackup` is run as that user so
 * the data directory is its own. Both are removed by `remove()`, and when the start itself fails.
 */
import { freePort } from './free-port.js';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { databaseUrlFor } from './database-url.js';

const run = promisify(execFile);

export interface ReplicaCluster {
  /** The primary's `postgres` database; `primaryUrlFor(name)` names another of its databases. */
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  primaryUrlFor(database: string): string;
  replicaUrlFor(database: string): string;
  /** Stops the replica (fast shutdown: its open connections are cut), and starts it again. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** `pg_wal_replay_pause()` / `pg_wal_replay_resume()` on the replica: WAL still arrives, none is applied. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has applied everything the primary had written when it was called. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops and deletes both clusters. */
  remove(): Promise<void>;
}

async function oneValue<T>(url: string, sql: string): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ value: T }>(sql);
    return rows[0]?.value as T;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50)) {
    if (await check().catch(() => false)) return;
  }
  throw new Error(`${what} within ${timeoutMs / 1000} s`);
}

function installedVersion(): string {
  const [version] = readdirSync('/etc/postgresql');
  if (version === undefined) throw new Error('no PostgreSQL installation under /etc/postgresql');
  return version;
}

/** Starts a primary and a replica streaming from it; both answer when this resolves. */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const version = installedVersion();
  const id = randomBytes(4).toString('hex');
  const names = { primary: `sl_primary_${id}`, replica: `sl_replica_${id}` };
  const ports = { primary: await freePort(), replica: await freePort() };
  const urlFor = (port: number, database: string) =>
    databaseUrlFor(`postgres://postgres@127.0.0.1:${port}/postgres`, database);
  const primaryUrl = urlFor(ports.primary, 'postgres');
  const replicaUrl = urlFor(ports.replica, 'postgres');
  const ctl = (name: string, action: 'start' | 'stop', ...options: string[]) =>
    run('pg_ctlcluster', ['--skip-systemctl-redirect', ...options, version, name, action]);
  const created: string[] = [];
  const remove = async (): Promise<void> => {
    for (const name of created.splice(0).reverse()) {
      await run('pg_dropcluster', ['--stop', version, name]).catch(() => undefined);
    }
  };
  const create = async (name: string, port: number, start: boolean): Promise<void> => {
    const dataDir = join('/var/lib/postgresql', version, name);
    created.push(name);
    await run('pg_createcluster', [
      version,
      name,
      '-p',
      String(port),
      '-d',
      dataDir,
      ...(start ? ['--start'] : []),
      '--',
      '--auth=trust',
      // A cluster of a test run: nothing to keep through a crash of the machine.
      '--no-sync',
    ]);
  };
  const replicaAnswers = async () =>
    (await oneValue<boolean>(replicaUrl, 'SELECT pg_is_in_recovery() AS value')) === true;

  try {
    await create(names.primary, ports.primary, true);
    await waitFor(
      'the primary did not answer',
      async () => (await oneValue<number>(primaryUrl, 'SELECT 1 AS value')) === 1,
    );
    // The replica's own cluster gives it its configuration (port, paths); its data is the primary's.
    await create(names.replica, ports.replica, false);
    const replicaData = join('/var/lib/postgresql', version, names.replica);
    for (const entry of await readdir(replicaData))
      await rm(join(replicaData, entry), { recursive: true, force: true });
    await run('runuser', [
      '-u',
      'postgres',
      '--',
      'pg_basebackup',
      '-D',
      replicaData,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.primary),
      '-U',
      'postgres',
    ]);
    await ctl(names.replica, 'start');
    await waitFor('the replica did not answer in recovery', replicaAnswers);
  } catch (error) {
    await remove();
    throw error;
  }

  const cluster: ReplicaCluster = {
    primaryUrl,
    replicaUrl,
    primaryUrlFor: (database) => urlFor(ports.primary, database),
    replicaUrlFor: (database) => urlFor(ports.replica, database),
    async stopReplica() {
      await ctl(names.replica, 'stop', '-m', 'fast');
    },
    async startReplica() {
      await ctl(names.replica, 'start');
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
    remove,
  };
  return cluster;
}
