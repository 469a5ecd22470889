/**
 * A PostgreSQL primary and a streaming replica of it, both of this process's own: two servers of the
 * installed PostgreSQL in a temporary directory, on free ports of 127.0.0.1 (trust authentication),
 * the primary made by `initdb` and the replica by `pg_basebackup -R` from it. Run as root, the
 * programs run as the `postgres` user (PostgreSQL refuses root), the directory given to it. Nothing
 * is synced to disk (`--no-sync`, `fsync=off`): a pair of a test run has nothing to keep through a
 * crash of the machine, and a replica's first start would otherwise sync every file of its copy.
 * Both are removed by `remove()`, and when the start itself fails.
 */
import { freePort } from './free-port.js';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
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
  /** Stops both servers and deletes their directory. */
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

/** The installed PostgreSQL's programs: Debian's newest `/usr/lib/postgresql/<version>/bin`, else those on the PATH. */
function programDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    : [];
  const [newest] = versions.sort((a, b) => Number(b) - Number(a));
  return newest === undefined ? undefined : join(root, newest, 'bin');
}

/** Starts a primary and a replica streaming from it; both answer when this resolves. */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const bin = programDir();
  const asRoot = process.getuid?.() === 0;
  const postgres = async (program: string, args: string[]): Promise<void> => {
    const path = bin === undefined ? program : join(bin, program);
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args));
  };
  const root = await mkdtemp(join(os.tmpdir(), 'sl-replica-'));
  if (asRoot) await run('chown', ['postgres', root]);
  const ports = { primary: await freePort(), replica: await freePort() };
  const dirs = { primary: join(root, 'primary'), replica: join(root, 'replica') };
  const urlFor = (port: number, database: string) =>
    databaseUrlFor(`postgres://postgres@127.0.0.1:${port}/postgres`, database);
  const primaryUrl = urlFor(ports.primary, 'postgres');
  const replicaUrl = urlFor(ports.replica, 'postgres');
  const running = new Set<keyof typeof dirs>();

  const start = async (server: keyof typeof dirs): Promise<void> => {
    const settings = [
      `port=${ports[server]}`,
      'listen_addresses=127.0.0.1',
      `unix_socket_directories=${root}`,
      'fsync=off',
    ];
    running.add(server);
    await postgres('pg_ctl', [
      'start',
      '--wait',
      '-D',
      dirs[server],
      '-l',
      join(root, `${server}.log`),
      '-o',
      settings.map((setting) => `-c ${setting}`).join(' '),
    ]).catch(async (error: unknown) => {
      const log = await readFile(join(root, `${server}.log`), 'utf8').catch(() => '');
      throw new Error(`the ${server} did not start: ${String(error)}\n${log.slice(-2000)}`);
    });
  };
  const stop = async (server: keyof typeof dirs, mode: 'fast' | 'immediate'): Promise<void> => {
    await postgres('pg_ctl', ['stop', '--wait', '-D', dirs[server], '-m', mode]);
    running.delete(server);
  };
  const remove = async (): Promise<void> => {
    // Their data is deleted next: nothing to shut down cleanly.
    await Promise.all([...running].map((server) => stop(server, 'immediate').catch(() => undefined)));
    await rm(root, { recursive: true, force: true });
  };
  const replicaAnswers = async () =>
    (await oneValue<boolean>(replicaUrl, 'SELECT pg_is_in_recovery() AS value')) === true;

  try {
    await postgres('initdb', ['-D', dirs.primary, '-U', 'postgres', '--auth=trust', '--no-sync']);
    await start('primary');
    await postgres('pg_basebackup', [
      '-D',
      dirs.replica,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.primary),
      '-U',
      'postgres',
    ]);
    await start('replica');
    await waitFor('the replica did not answer in recovery', replicaAnswers);
  } catch (error) {
    await remove();
    throw error;
  }

  return {
    primaryUrl,
    replicaUrl,
    primaryUrlFor: (database) => urlFor(ports.primary, database),
    replicaUrlFor: (database) => urlFor(ports.replica, database),
    stopReplica: () => stop('replica', 'fast'),
    async startReplica() {
      await start('replica');
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
}
