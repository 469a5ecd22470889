/**
 * The chaos suite's own stores, so that restarting them disturbs nothing else on the machine: a
 * PostgreSQL cluster made with Debian's `pg_createcluster` and a `redis-server` with an AOF written
 * every second, each on a free port of 127.0.0.1, removed at the end.
 */
import { freePort } from '../support/free-port.js';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    if (await check().catch(() => false)) return;
  }
  throw new Error(`${what} did not answer within ${timeoutMs / 1000} s`);
}

export interface PrivatePostgres {
  url: string;
  /** Stops the server (fast: open connections are cut) and starts it again. */
  restart(): Promise<void>;
  remove(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A new cluster of the installed PostgreSQL (trust authentication on loopback), started. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const [version] = readdirSync('/etc/postgresql');
  if (version === undefined) throw new Error('no PostgreSQL installation under /etc/postgresql');
  const name = `chaos_${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  await run('pg_createcluster', [version, name, '-p', String(port), '--start', '--', '--auth=trust']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const remove = async () => {
    await run('pg_dropcluster', ['--stop', version, name]);
  };
  try {
    await waitFor('the private PostgreSQL', () => answers(url));
  } catch (error) {
    await remove().catch(() => undefined);
    throw error;
  }
  return {
    url,
    async restart() {
      await run('pg_ctlcluster', ['--skip-systemctl-redirect', '-m', 'fast', version, name, 'restart']);
      await waitFor('PostgreSQL after its restart', () => answers(url));
    },
    remove,
  };
}

export interface PrivateRedis {
  url: string;
  /**
   * Stops Redis and starts it again on the same AOF: with `SHUTDOWN` (which writes and syncs the
   * AOF first), or with SIGKILL, which loses what was written in the last second.
   */
  restart(how: 'shutdown' | 'sigkill'): Promise<void>;
  remove(): Promise<void>;
}

/** A `redis-server` with `appendonly yes` and `appendfsync everysec`, as a production queue runs. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(os.tmpdir(), 'sl-chaos-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const ping = async () => (await run('redis-cli', ['-p', String(port), 'ping'])).stdout.trim() === 'PONG';
  let server: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    server = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--save',
        '',
        '--dir',
        dir,
        '--logfile',
        join(dir, 'redis.log'),
      ],
      { stdio: 'ignore' },
    );
    await waitFor('the private Redis', ping);
  };
  const stop = async (how: 'shutdown' | 'sigkill'): Promise<void> => {
    const current = server;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = once(current, 'exit');
    if (how === 'sigkill') current.kill('SIGKILL');
    else await run('redis-cli', ['-p', String(port), 'shutdown']).catch(() => current.kill('SIGTERM'));
    await exited;
  };
  await start();
  return {
    url,
    async restart(how) {
      await stop(how);
      await start();
    },
    async remove() {
      await stop('sigkill');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
