import pg from 'pg';
import { LIBRARY_DEFAULTS } from '../config.js';
import type { Logger } from '../logger.js';
import { AppError } from '../errors.js';
import { isDatabaseUnavailable } from './connection-errors.js';
import { databaseAttributes, statementSpan, traceClient } from '../tracing/database-spans.js';
import { tracingEnabled } from '../tracing/tracing.js';

/** What repository functions run on: the pool, or a client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow>(query: pg.QueryConfig): Promise<pg.QueryResult<R>>;
}

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  logger: Logger;
  /** Upper bound for waiting on a connection, so an unreachable server answers fast instead of hanging. */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  applicationName?: string;
}

export interface Database extends Queryable {
  readonly pool: pg.Pool;
  withTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Resolves when the server answers a trivial query (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

function translate(error: unknown): unknown {
  if (isDatabaseUnavailable(error)) {
    return new AppError('service_unavailable', undefined, { cause: error });
  }
  return error;
}

export function createDatabase(options: DatabaseOptions): Database {
  // Services pass their DATABASE_* settings; the library's defaults serve tools and tests.
  const defaults = LIBRARY_DEFAULTS.database;
  const statementTimeoutMs = options.statementTimeoutMs ?? defaults.statementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? defaults.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs ?? defaults.connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    application_name: options.applicationName ?? defaults.applicationName,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection emits here; without a listener the process would crash.
  // pg hangs the whole client (its connection, buffers and parameters) on the error: only what says
  // why is logged.
  pool.on('error', (error) => {
    const { code } = error as Error & { code?: unknown };
    const err = { type: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
    options.logger.warn({ err }, 'idle database connection failed');
  });

  // Decided once per pool: with tracing off, a statement costs no check at all.
  const spanAttributes = tracingEnabled() ? databaseAttributes(options.url) : undefined;
  const run = <R extends pg.QueryResultRow>(query: pg.QueryConfig) =>
    spanAttributes ? statementSpan(spanAttributes, query, () => pool.query<R>(query)) : pool.query<R>(query);

  return {
    pool,
    async query<R extends pg.QueryResultRow>(query: pg.QueryConfig) {
      try {
        return await run<R>(query);
      } catch (error) {
        throw translate(error);
      }
    },
    async withTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translate(error);
      }
      let broken: unknown;
      // A connection lost while checked out is emitted here as well as failing the query; an
      // 'error' event without a listener would crash the process.
      const onError = (error: Error): void => {
        broken = error;
      };
      client.on('error', onError);
      const untrace = spanAttributes ? traceClient(client, spanAttributes) : undefined;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        broken = error;
        await client.query('ROLLBACK').catch(() => undefined);
        throw translate(error);
      } finally {
        client.off('error', onError);
        untrace?.();
        // A client whose connection failed must not go back into the pool.
        client.release(broken !== undefined && isDatabaseUnavailable(broken));
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}
