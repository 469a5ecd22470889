import { PostgreSqlContainer, type StartedPostgreSqlContainer } from '@testcontainers/postgresql';
import { RedisContainer, type StartedRedisContainer } from '@testcontainers/redis';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { Network, type StartedNetwork } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { SuppressionListContainer } from '../../src/testcontainers/index.js';
import { footprintOfNetwork, leftOf, networkOf } from './runtime-state.js';

let network: StartedNetwork;
let postgres: StartedPostgreSqlContainer;
let redis: StartedRedisContainer;

beforeAll(async () => {
  network = await new Network().start();
  [postgres, redis] = await Promise.all([
    new PostgreSqlContainer('postgres:15-alpine').withNetwork(network).start(),
    new RedisContainer('redis:7-alpine').withNetwork(network).start(),
  ]);
});

afterAll(async () => {
  await Promise.all([postgres?.stop(), redis?.stop()]);
  await network?.stop();
});

async function workersOnEvents(redisUrl: string): Promise<number> {
  const queue = new Queue(EVENTS_QUEUE, { connection: { url: redisUrl } });
  try {
    return await queue.getWorkersCount();
  } finally {
    await queue.close();
  }
}

describe('SuppressionListContainer with the caller’s PostgreSQL and Redis', () => {
  it('when given their containers, then it joins their network, starts no store of its own, and leaves them running when stopped', async () => {
    const adminToken = randomBytes(16).toString('hex');
    const sl = await new SuppressionListContainer()
      .withPostgres(postgres)
      .withRedis(redis)
      .withRole('api')
      .withAdminToken(adminToken)
      .start();
    try {
      expect(networkOf(sl)).toBe(network.getName());
      const footprint = await footprintOfNetwork(network.getName());
      expect(footprint.containers.sort()).toEqual([postgres.getId(), redis.getId(), sl.getId()].sort());

      // ROLE=api: the API and its dashboard, and no worker on the queue.
      const dashboard = `${sl.getBaseUrl()}/admin/queues`;
      expect((await fetch(dashboard)).status).toBe(401);
      expect((await fetch(dashboard, { headers: { authorization: `Bearer ${sl.getAdminToken()}` } })).status).toBe(200);
      expect(await workersOnEvents(redis.getConnectionUrl())).toBe(0);
    } finally {
      await sl.stop();
    }
    const left = await leftOf({
      containers: [postgres.getId(), redis.getId()],
      networks: [network.getName()],
      volumes: [],
    });
    expect(left.containers).toHaveLength(2);
    expect(left.networks).toEqual([network.getName()]);
  });

  it('when given a connection string and put on the caller’s network, then it serves from that database and runs its workers', async () => {
    const databaseUrl = `postgres://${postgres.getUsername()}:${postgres.getPassword()}@${postgres.getIpAddress(network.getName())}:5432/${postgres.getDatabase()}`;
    const sl = await new SuppressionListContainer()
      .withNetwork(network)
      .withPostgres(databaseUrl)
      .withRedis(redis)
      .start();
    try {
      expect(networkOf(sl)).toBe(network.getName());
      expect(sl.getRedisUrl()).toBe(redis.getConnectionUrl());
      const list = await fetch(`${sl.getBaseUrl()}/suppressions`, {
        headers: { authorization: `Bearer ${sl.getApiKey()}` },
      });
      expect(list.status).toBe(200);
      expect(await workersOnEvents(redis.getConnectionUrl())).toBeGreaterThan(0);
    } finally {
      await sl.stop();
    }
  });
});
