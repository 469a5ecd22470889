import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { createDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createRedis } from '../../src/redis.js';

/** A port on 127.0.0.1 that nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A database handle on a port where no PostgreSQL answers (a closed one unless given). Close it after use. */
export async function unreachableDatabase(
  options: { port?: number; connectTimeoutMs?: number } = {},
): Promise<Database> {
  const url = `postgres://postgres@127.0.0.1:${options.port ?? (await closedPort())}/postgres`;
  return createDatabase({
    url,
    poolSize: 2,
    logger: createLogger('silent'),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
  });
}

/** A 'request' Redis client on a closed port: with no offline queue, every command fails at once. Disconnect it after use. */
export async function unreachableRedis(): Promise<Redis> {
  const client = createRedis(`redis://127.0.0.1:${await closedPort()}`, 'request');
  // Its reconnection attempts fail by design; ioredis would report each one.
  client.on('error', () => undefined);
  return client;
}
