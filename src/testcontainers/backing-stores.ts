import { randomBytes } from 'node:crypto';
import {
  GenericContainer,
  getContainerRuntimeClient,
  Network,
  Wait,
  type StartedNetwork,
  type StartedTestContainer,
} from 'testcontainers';

/** The images of the PostgreSQL and Redis the container starts when it is given none. */
export const DEFAULT_POSTGRES_IMAGE = 'postgres:15-alpine';
export const DEFAULT_REDIS_IMAGE = 'redis:7-alpine';

const POSTGRES_PORT = 5432;
const REDIS_PORT = 6379;

/** A started PostgreSQL container: `StartedPostgreSqlContainer` of `@testcontainers/postgresql`, or any alike. */
export interface StartedPostgres extends StartedTestContainer {
  getUsername(): string;
  getPassword(): string;
  getDatabase(): string;
}

/** A started Redis container serving on 6379: `StartedRedisContainer` of `@testcontainers/redis`, or any. */
export interface StartedRedis extends StartedTestContainer {
  getPassword?(): string;
}

/**
 * Where the service's PostgreSQL is: a started container (the service joins its network), or a
 * connection string the service's container can reach.
 */
export type PostgresSource = StartedPostgres | string;
/**
 * Where the service's Redis is: a started container (the service joins its network), or a URL that
 * the service's container and the test's process can both reach, since the event producer connects
 * to it from the test.
 */
export type RedisSource = StartedRedis | string;

/** The PostgreSQL and Redis of one service container, with the network it joins. */
export interface BackingStores {
  /** The network the service's container joins; undefined for the runtime's default. */
  network: string | undefined;
  /** As the service's container reaches them. */
  databaseUrl: string;
  redisUrl: string;
  /** As the test's process reaches it. */
  hostRedisUrl: string;
  /** Stops and removes what `startBackingStores` started (containers, their volumes, the network). */
  stop(): Promise<void>;
}

export interface BackingStoreOptions {
  postgres: PostgresSource | undefined;
  redis: RedisSource | undefined;
  /** The network the caller put the service's container on (`withNetwork`), if any. */
  network: string | undefined;
  startupTimeoutMs: number;
  /** Labels the containers started here (`START_LABEL`). */
  startId: string;
}

/**
 * The label on every container of one `start()`, valued with the start's id. A container whose
 * start fails after it was created (a port the runtime is slow to report) is not handed back by
 * Testcontainers, and Ryuk, which would remove it later, does not run everywhere: the label finds it.
 */
export const START_LABEL = 'org.suppression-list.start';

/** Removes, with their volumes, the containers of the start `startId`, whatever state they are in. */
export async function removeStarted(startId: string): Promise<void> {
  const docker = (await getContainerRuntimeClient()).container.dockerode;
  const containers = await docker.listContainers({ all: true, filters: { label: [`${START_LABEL}=${startId}`] } });
  await Promise.all(containers.map((container) => docker.getContainer(container.Id).remove({ force: true, v: true })));
}

/** Stops everything given, each whatever became of the others, and throws once with every failure. */
export async function stopAll(stops: readonly (() => Promise<unknown>)[]): Promise<void> {
  const results = await Promise.allSettled(stops.map((stop) => stop()));
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, 'stopping the suppression list containers failed');
}

/** The network the given containers share, or undefined when none was given. */
function sharedNetwork(given: StartedTestContainer[]): string | undefined {
  const [first, second] = given;
  if (first === undefined) return undefined;
  const shared = first
    .getNetworkNames()
    .find((name) => second === undefined || second.getNetworkNames().includes(name));
  if (shared === undefined) {
    throw new Error(
      'withPostgres and withRedis were given containers on no common network, and the service can join only one: start both on one Network.',
    );
  }
  return shared;
}

function redisUrl(host: string, port: number, password: string | undefined): string {
  return `redis://${password ? `:${encodeURIComponent(password)}@` : ''}${host}:${port}`;
}

function postgresUrl(container: StartedPostgres, network: string): string {
  const credentials = `${encodeURIComponent(container.getUsername())}:${encodeURIComponent(container.getPassword())}`;
  return `postgres://${credentials}@${container.getIpAddress(network)}:${POSTGRES_PORT}/${encodeURIComponent(container.getDatabase())}`;
}

function onNetwork(container: GenericContainer, network: StartedNetwork | string): GenericContainer {
  return typeof network === 'string' ? container.withNetworkMode(network) : container.withNetwork(network);
}

function startPostgres(network: StartedNetwork | string, options: BackingStoreOptions): Promise<StartedPostgres> {
  const credentials = { username: 'suppressions', password: randomBytes(12).toString('hex'), database: 'suppressions' };
  return (
    onNetwork(new GenericContainer(DEFAULT_POSTGRES_IMAGE), network)
      .withLabels({ [START_LABEL]: options.startId })
      // Published though only the service connects to it: podman 4.3 reports the image's EXPOSE as a
      // binding, and Testcontainers waits until every binding has a host port.
      .withExposedPorts(POSTGRES_PORT)
      .withEnvironment({
        POSTGRES_USER: credentials.username,
        POSTGRES_PASSWORD: credentials.password,
        POSTGRES_DB: credentials.database,
        // A database that lives as long as a test needs no flush to disk, at its making or after,
        // as Testcontainers for Java's PostgreSQLContainer runs it.
        POSTGRES_INITDB_ARGS: '--no-sync',
      })
      .withCommand(['postgres', '-c', 'fsync=off'])
      // The official image's first start logs this twice: for the server that makes the database,
      // then for the one that serves. A log line needs no shell in the image, as a port check would.
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .withStartupTimeout(options.startupTimeoutMs)
      .start()
      .then((container) =>
        Object.assign(container, {
          getUsername: () => credentials.username,
          getPassword: () => credentials.password,
          getDatabase: () => credentials.database,
        }),
      )
  );
}

function startRedis(network: StartedNetwork | string, options: BackingStoreOptions): Promise<StartedRedis> {
  return onNetwork(new GenericContainer(DEFAULT_REDIS_IMAGE), network)
    .withLabels({ [START_LABEL]: options.startId })
    .withExposedPorts(REDIS_PORT)
    .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
    .withStartupTimeout(options.startupTimeoutMs)
    .start();
}

/**
 * The service's PostgreSQL and Redis: those given, and for each one not given a container of its
 * own, on the network of the given containers, else on the caller's network, else on a new one.
 */
export async function startBackingStores(options: BackingStoreOptions): Promise<BackingStores> {
  const { postgres, redis } = options;
  const givenContainers = [postgres, redis].filter(
    (source): source is StartedTestContainer => source !== undefined && typeof source !== 'string',
  );
  let ownNetwork: StartedNetwork | undefined;
  const ownContainers: StartedTestContainer[] = [];
  // Containers first, then the network they were on, whatever became of the containers. After a
  // failed start, also whatever was created but not handed back.
  const stop = async (afterFailure = false): Promise<void> => {
    try {
      await stopAll(ownContainers.map((container) => () => container.stop()));
      if (afterFailure) await removeStarted(options.startId);
    } finally {
      await ownNetwork?.stop();
    }
  };
  try {
    let network: StartedNetwork | string | undefined = sharedNetwork(givenContainers) ?? options.network;
    if (network === undefined && (postgres === undefined || redis === undefined)) {
      ownNetwork = await new Network().start();
      network = ownNetwork;
    }
    const own = async <T extends StartedTestContainer>(start: (on: StartedNetwork | string) => Promise<T>) => {
      if (network === undefined) return undefined;
      const container = await start(network);
      ownContainers.push(container);
      return container;
    };
    // Both settle before anything is decided, so that a failure of one stops the other too.
    const settled = await Promise.allSettled([
      postgres === undefined ? own((on) => startPostgres(on, options)) : undefined,
      redis === undefined ? own((on) => startRedis(on, options)) : undefined,
    ]);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    const pg = settled[0].status === 'fulfilled' ? (settled[0].value ?? postgres) : undefined;
    const rd = settled[1].status === 'fulfilled' ? (settled[1].value ?? redis) : undefined;
    if (pg === undefined || rd === undefined) throw new Error('PostgreSQL or Redis was neither given nor started');
    const networkName = typeof network === 'string' ? network : network?.getName();
    const password = typeof rd === 'string' ? undefined : rd.getPassword?.();
    return {
      network: networkName,
      databaseUrl: typeof pg === 'string' ? pg : postgresUrl(pg, networkName ?? ''),
      redisUrl: typeof rd === 'string' ? rd : redisUrl(rd.getIpAddress(networkName ?? ''), REDIS_PORT, password),
      hostRedisUrl: typeof rd === 'string' ? rd : redisUrl(rd.getHost(), rd.getMappedPort(REDIS_PORT), password),
      stop: () => stop(),
    };
  } catch (error) {
    await stop(true).catch(() => undefined);
    throw error;
  }
}
