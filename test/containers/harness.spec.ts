import { Redis } from 'ioredis';
import pg from 'pg';
import { getContainerRuntimeClient } from 'testcontainers';
import { describe, expect, inject, it } from 'vitest';

/** The image of the running container that publishes `port` on the host, if one does. */
async function imageServing(port: number): Promise<string | undefined> {
  const docker = (await getContainerRuntimeClient()).container.dockerode;
  const containers = await docker.listContainers();
  return containers.find((container) => container.Ports.some((published) => published.PublicPort === port))?.Image;
}

describe('the test harness without DATABASE_URL and REDIS_URL', () => {
  it('when neither is set, then global-setup serves the tests a PostgreSQL and a Redis it started with Testcontainers', async () => {
    const databaseUrl = new URL(inject('databaseUrl'));
    const redisUrl = new URL(inject('redisUrl'));
    expect(await imageServing(Number(databaseUrl.port))).toMatch(/postgres:15-alpine$/);
    expect(await imageServing(Number(redisUrl.port))).toMatch(/redis:7-alpine$/);

    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    try {
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
      expect(rows[0]?.server_version).toMatch(/^15\./);
    } finally {
      await client.end();
    }
    const redis = new Redis(inject('redisUrl'));
    try {
      expect(await redis.ping()).toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });
});
