import { Redis } from 'ioredis';
import pg from 'pg';
import type { CleanupStack } from '../../bench/common/cleanup.js';
import { databaseUrlFor } from '../support/database-url.js';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether the machine's PostgreSQL and Redis answer; undefined when both do, else why not. */
export async function storesAnswer(): Promise<string | undefined> {
  const problems: string[] = [];
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    problems.push(`PostgreSQL at ${SERVER_URL}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The connection's own error says why (refused, unknown host); the rejected call only that it closed.
  let connectionError: Error | undefined;
  redis.on('error', (error: Error) => {
    connectionError = error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    const reason = connectionError ?? (error instanceof Error ? error : new Error(String(error)));
    problems.push(`Redis at ${REDIS_URL}: ${reason.message}`);
  } finally {
    redis.disconnect();
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** What the containers of a run share: a database, and a queue and key prefix in Redis, of the run's own. */
export interface RunStores {
  databaseUrl: string;
  prefix: string;
  redis: Redis;
}

/** The run's database and Redis prefix, each with its removal pushed on `cleanup`. */
export async function runStores(runId: string, cleanup: CleanupStack): Promise<RunStores> {
  const database = `sl_image_${runId}`;
  const server = new pg.Client({ connectionString: SERVER_URL });
  await server.connect();
  try {
    await server.query(`CREATE DATABASE ${database}`);
  } finally {
    await server.end();
  }
  cleanup.push(`drop database ${database}`, async () => {
    const client = new pg.Client({ connectionString: SERVER_URL });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  });
  const prefix = `slimg${runId}`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
  // A failed command says what went wrong; the client's own events would only repeat it.
  redis.on('error', () => undefined);
  cleanup.push('close Redis', () => redis.quit());
  cleanup.push(`delete the Redis keys of ${prefix}`, async () => {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  });
  return { databaseUrl: databaseUrlFor(SERVER_URL, database), prefix, redis };
}
