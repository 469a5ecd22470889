import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { databaseUrlFor } from './database-url.js';

export interface TestDatabase {
  name: string;
  url: string;
  db: Database;
  drop(): Promise<void>;
}

/** Runs one statement on the tests' PostgreSQL server, outside any test database. */
export async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database of this test file's own, copied from the template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `sl_test_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  const url = databaseUrlFor(inject('databaseUrl'), name);
  const db = createDatabase({ url, poolSize: 5, logger: createLogger('silent') });
  return {
    name,
    url,
    db,
    drop: async () => {
      await db.close();
      await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** For the whole test file: a database of its own, dropped afterwards. */
export function useTestDatabase(): Omit<TestDatabase, 'drop'> {
  const setup = {} as TestDatabase;
  beforeAll(async () => {
    Object.assign(setup, await createTestDatabase());
  });
  afterAll(async () => {
    await setup.drop?.();
  });
  return setup;
}
