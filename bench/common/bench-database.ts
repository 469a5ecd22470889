import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Queryable } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { newId } from '../../src/domain/ids.js';
import type { Logger } from '../../src/logger.js';
import { databaseUrlFor } from '../../test/support/database-url.js';

export interface BenchDatabase {
  name: string;
  /** DATABASE_URL's server and credentials, this database. */
  url: string;
  /** Drops the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

// pg's pool.end() resolves before its sockets have closed; how long to let them go before forcing.
const DISCONNECT_WAIT_MS = 5000;

async function onServer(serverUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, application_name: 'bench-admin' });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Drops a database once the connections closing on it are gone, so FORCE only ends connections
 * someone forgot (a pool whose idle client is terminated logs a failure that is not one).
 */
async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  for (const deadline = Date.now() + DISCONNECT_WAIT_MS; Date.now() < deadline; await sleep(50)) {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]?.n === 0) break;
  }
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** A migrated database that bench databases of its server are copied from, while one is in force. */
interface Template {
  /** The server's host and port, as DATABASE_URL names them. */
  server: string;
  name: string;
}

const templates = new AsyncLocalStorage<Template>();
const serverOf = (url: string): string => new URL(url).host;

/**
 * Runs `work` with every bench database it creates on `serverUrl`'s server copied from `template`,
 * a database of that server already migrated (the tests' template), instead of migrated anew.
 */
export function copyingTemplate<T>(serverUrl: string, template: string, work: () => Promise<T>): Promise<T> {
  return templates.run({ server: serverOf(serverUrl), name: template }, work);
}

/**
 * Runs `work` with every bench database it creates on `serverUrl`'s server copied from one template
 * migrated here once and dropped afterwards: a copy is a fraction of a migration's time. Inside
 * `copyingTemplate` (or another run of this) for the same server, that template is used instead.
 */
export async function withMigratedTemplate<T>(serverUrl: string, logger: Logger, work: () => Promise<T>): Promise<T> {
  if (templates.getStore()?.server === serverOf(serverUrl)) return work();
  const template = await createBenchDatabase(serverUrl, logger);
  try {
    return await copyingTemplate(serverUrl, template.name, work);
  } finally {
    await template.drop();
  }
}

/**
 * A new database `bench_<random>` on the server of `serverUrl`, migrated the way the service
 * migrates at start (or a copy of the template in force, see `withMigratedTemplate`), so a run
 * measures the real schema and indexes with no rows left by others.
 */
export async function createBenchDatabase(serverUrl: string, logger: Logger): Promise<BenchDatabase> {
  // The name is ours (hex only), so it is safe in DDL, which takes no parameters.
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const template = templates.getStore();
  const copied = template?.server === serverOf(serverUrl) ? template.name : undefined;
  await onServer(serverUrl, (client) =>
    client.query(
      copied === undefined
        ? `CREATE DATABASE ${name}`
        : `CREATE DATABASE ${name} TEMPLATE ${client.escapeIdentifier(copied)}`,
    ),
  );
  const url = databaseUrlFor(serverUrl, name);
  const drop = () => onServer(serverUrl, (client) => dropDatabase(client, name));
  if (copied !== undefined) return { name, url, drop };
  try {
    await migrate(url, logger);
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, url, drop };
}

/** Creates `count` accounts in one statement and returns their ids. */
export async function createAccounts(db: Queryable, count: number, namePrefix = 'bench'): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId());
  await db.query({
    text: 'INSERT INTO accounts (id, name) SELECT * FROM unnest($1::uuid[], $2::text[])',
    values: [ids, ids.map((_, index) => `${namePrefix}-${index + 1}`)],
  });
  return ids;
}

/** Row count of one of our tables (the name comes from code, never from input). */
export async function countRows(
  db: Queryable,
  table: 'suppressions' | 'suppression_events' | 'accounts',
): Promise<number> {
  const { rows } = await db.query<{ count: string }>({ text: `SELECT count(*) AS count FROM ${table}` });
  return Number(rows[0]?.count ?? 0);
}

/** How many recorded events ended in each outcome. */
export async function countOutcomes(db: Queryable): Promise<Record<string, number>> {
  const { rows } = await db.query<{ outcome: string; count: string }>({
    text: 'SELECT outcome, count(*) AS count FROM suppression_events GROUP BY outcome ORDER BY outcome',
  });
  return Object.fromEntries(rows.map((row) => [row.outcome, Number(row.count)]));
}
