import net from 'node:net';
import { loadConfig } from '../../src/config.js';

export interface Services {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

// The service's own defaults, read where they are set.
const { DATABASE_URL: LOCAL_DATABASE_URL, REDIS_URL: LOCAL_REDIS_URL } = loadConfig({});

function answers(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort), timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function containerRuntimeAvailable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startContainers(): Promise<Services> {
  const [{ PostgreSqlContainer }, { RedisContainer }] = await Promise.all([
    import('@testcontainers/postgresql'),
    import('@testcontainers/redis'),
  ]);
  const [postgres, redis] = await Promise.all([
    new PostgreSqlContainer('postgres:15-alpine').start(),
    new RedisContainer('redis:7-alpine').start(),
  ]);
  return {
    databaseUrl: postgres.getConnectionUri(),
    redisUrl: redis.getConnectionUrl(),
    stop: async () => {
      await Promise.all([postgres.stop(), redis.stop()]);
    },
  };
}

const HOW_TO = `Integration tests need PostgreSQL 15 and Redis 7. Provide them in one of these ways:
  - set DATABASE_URL (a role that may CREATE DATABASE) and REDIS_URL, e.g.
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm test
  - run a container runtime (Docker or Podman) so that testcontainers can start them
  - start them locally on their default ports (127.0.0.1:5432 and 127.0.0.1:6379), e.g. docker compose up -d postgres redis`;

/**
 * Where the tests' PostgreSQL and Redis come from: the environment first, then containers when a
 * container runtime is available, then the same local defaults the service itself uses.
 */
export async function resolveServices(env: NodeJS.ProcessEnv = process.env): Promise<Services> {
  if (env['DATABASE_URL'] && env['REDIS_URL']) {
    return { databaseUrl: env['DATABASE_URL'], redisUrl: env['REDIS_URL'], stop: () => Promise.resolve() };
  }
  if (!env['DATABASE_URL'] && !env['REDIS_URL'] && (await containerRuntimeAvailable())) return startContainers();
  const databaseUrl = env['DATABASE_URL'] ?? LOCAL_DATABASE_URL;
  const redisUrl = env['REDIS_URL'] ?? LOCAL_REDIS_URL;
  const [database, redis] = await Promise.all([answers(databaseUrl, 5432), answers(redisUrl, 6379)]);
  if (!database || !redis) {
    const missing = [!database && `PostgreSQL at ${databaseUrl}`, !redis && `Redis at ${redisUrl}`]
      .filter(Boolean)
      .join(' and ');
    throw new Error(`No answer from ${missing}.\n${HOW_TO}`);
  }
  return { databaseUrl, redisUrl, stop: () => Promise.resolve() };
}
