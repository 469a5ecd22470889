/**
 * PostgreSQL servers of this process's own: servers of the installed PostgreSQL in a temporary
 * directory, on free ports of 127.0.0.1 (trust authentication), which a test may stop, crash and
 * start again, as it never may the shared server. Run as root, the programs run as the `postgres`
 * user (PostgreSQL refuses root), the directory given to it. Nothing is synced to disk
 * (`--no-sync`, `fsync=off`): a server of a test run has nothing to keep through a crash of the
 * machine.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { databaseUrlFor } from './database-url.js';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** How a server stops: `fast` cuts its connections and shuts down cleanly; `immediate` is a crash, recovered at the next start. */
export type StopMode = 'fast' | 'immediate';

/** One server's data directory and port under a `PrivateServers` root. */
export interface PrivateServer {
  readonly port: number;
  /** The URL of one of its databases. */
  urlFor: (database: string) => string;
  /** Makes its data directory with `initdb`: a new, empty cluster. */
  initdb(): Promise<void>;
  start(): Promise<void>;
  stop(mode: StopMode): Promise<void>;
}

/** A temporary directory for servers, and the installed PostgreSQL's programs run in it. */
export interface PrivateServers {
  readonly root: string;
  /** Runs one of PostgreSQL's programs (initdb, pg_ctl, pg_basebackup), as `postgres` when this process is root. */
  program(name: string, args: string[]): Promise<void>;
  /** A server whose data directory is `name` under the root, made by `initdb()` or by the caller (`pg_basebackup`) before its first start. */
  server(name: string, port: number): PrivateServer;
  /** Stops every running server at once and deletes the directory. */
  remove: () => Promise<void>;
}

/** The one value (a column named `value`) of a statement run on a connection of its own. */
export async function oneValue<T>(url: string, sql: string): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  // A server stopped between the statement and `end` makes the idle client emit an error; the
  // statement's own failure is the one that counts.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ value: T }>(sql);
    return rows[0]?.value as T;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Resolves once `check` holds, asking every 50 ms; a check that throws counts as not yet. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
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

export async function privateServers(prefix: string): Promise<PrivateServers> {
  const bin = programDir();
  const asRoot = process.getuid?.() === 0;
  const program = async (name: string, args: string[]): Promise<void> => {
    const path = bin === undefined ? name : join(bin, name);
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args));
  };
  const root = await mkdtemp(join(os.tmpdir(), prefix));
  if (asRoot) await run('chown', ['postgres', root]);
  const running = new Map<string, PrivateServer>();

  const server = (name: string, port: number): PrivateServer => {
    const dir = join(root, name);
    const log = join(root, `${name}.log`);
    const self: PrivateServer = {
      port,
      urlFor: (database) => databaseUrlFor(`postgres://postgres@127.0.0.1:${port}/postgres`, database),
      initdb: () => program('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '--no-sync']),
      async start() {
        const settings = [`port=${port}`, 'listen_addresses=127.0.0.1', `unix_socket_directories=${root}`, 'fsync=off'];
        running.set(name, self);
        await program('pg_ctl', [
          'start',
          '--wait',
          '-D',
          dir,
          '-l',
          log,
          '-o',
          settings.map((setting) => `-c ${setting}`).join(' '),
        ]).catch(async (error: unknown) => {
          const tail = await readFile(log, 'utf8').catch(() => '');
          throw new Error(`the ${name} did not start: ${String(error)}\n${tail.slice(-2000)}`);
        });
      },
      async stop(mode) {
        await program('pg_ctl', ['stop', '--wait', '-D', dir, '-m', mode]);
        running.delete(name);
      },
    };
    return self;
  };

  return {
    root,
    program,
    server,
    async remove() {
      // Their data is deleted next: nothing to shut down cleanly.
      await Promise.all([...running.values()].map((each) => each.stop('immediate').catch(() => undefined)));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A server of its own, made by `initdb` and answering when this resolves. */
export interface PrivatePrimary {
  readonly url: string;
  urlFor: (database: string) => string;
  /** Stops it (`immediate`: as a crash) and starts it again; resolves once it answers. */
  restart(mode: StopMode): Promise<void>;
  remove: () => Promise<void>;
}

export async function startPrivatePrimary(): Promise<PrivatePrimary> {
  const servers = await privateServers('sl-primary-');
  const primary = servers.server('primary', await freePort());
  try {
    await primary.initdb();
    await primary.start();
  } catch (error) {
    await servers.remove();
    throw error;
  }
  return {
    url: primary.urlFor('postgres'),
    urlFor: primary.urlFor,
    async restart(mode) {
      await primary.stop(mode);
      await primary.start();
    },
    remove: servers.remove,
  };
}
