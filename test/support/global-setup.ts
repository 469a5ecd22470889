import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.js';
import { createLogger } from '../../src/logger.js';
import { databaseUrlFor } from './database-url.js';
import { resolveServices } from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    templateDatabase: string;
  }
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Finds PostgreSQL and Redis, and migrates one template database that every test file copies. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await resolveServices();
  const template = `sl_template_${process.pid}`;
  await admin(services.databaseUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${template}`);
    await client.query(`CREATE DATABASE ${template}`);
  });
  await migrate(databaseUrlFor(services.databaseUrl, template), createLogger('silent'));
  project.provide('databaseUrl', services.databaseUrl);
  project.provide('redisUrl', services.redisUrl);
  project.provide('templateDatabase', template);
  return async () => {
    await admin(services.databaseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    await services.stop();
  };
}
