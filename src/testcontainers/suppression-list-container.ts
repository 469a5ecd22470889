import { randomUUID } from 'node:crypto';
import { GenericContainer, ImageName, Wait } from 'testcontainers';
import { issueApiKey } from './api-keys.js';
import {
  removeStarted,
  START_LABEL,
  startBackingStores,
  type PostgresSource,
  type RedisSource,
} from './backing-stores.js';
import { DEFAULT_ACCOUNT, DEFAULT_IMAGE, DEFAULT_SMTP_PORT, HTTP_PORT } from './defaults.js';
import { StartedSuppressionListContainer } from './started-suppression-list-container.js';

const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;

export type Role = 'all' | 'api' | 'workers';

/**
 * The suppression list service for a test, as `new PostgreSqlContainer().start()` is PostgreSQL:
 *
 *   const sl = await new SuppressionListContainer().start();
 *   sl.getBaseUrl(); sl.getApiKey();
 *   await sl.stop();
 *
 * `start()` starts a PostgreSQL and a Redis of its own on a network of its own (or uses those given
 * to `withPostgres` and `withRedis`), starts the service on it, waits until `GET /ready` answers
 * 200, and issues an account's keys. `stop()` removes every container, volume and network it started.
 * Everything of `GenericContainer` applies as well (`withEnvironment`, `withStartupTimeout`,
 * `withNetwork`, `withLogConsumer`, ...).
 */
export class SuppressionListContainer extends GenericContainer {
  private postgres: PostgresSource | undefined;
  private redis: RedisSource | undefined;
  private smtpPort: number | undefined;
  private adminToken: string | undefined;

  constructor(image: string = DEFAULT_IMAGE) {
    super(image);
    this.withExposedPorts(HTTP_PORT)
      .withEnvironment({
        // A developer's settings: production's would require PUBLIC_BASE_URL and METRICS_TOKEN.
        NODE_ENV: 'development',
        HOST: '0.0.0.0',
        PORT: String(HTTP_PORT),
        // A test's bursts of requests (polling for an event's outcome) are not a tenant to slow down.
        RATE_LIMIT_PER_SECOND: '1000',
      })
      // An HTTP check runs from the test's side, so the image needs no shell (a port check runs one in it).
      .withWaitStrategy(Wait.forHttp('/ready', HTTP_PORT).forStatusCode(200))
      .withStartupTimeout(DEFAULT_STARTUP_TIMEOUT_MS);
  }

  /** Runs `image` instead of the default (a registry's copy, a tag of your own build). */
  withImage(image: string): this {
    this.imageName = ImageName.fromString(image);
    return this;
  }

  /**
   * The PostgreSQL to use: a started container (the service joins its network and reaches it there),
   * or a connection string the service's container can reach. Without it, one is started.
   */
  withPostgres(postgres: PostgresSource): this {
    this.postgres = postgres;
    return this;
  }

  /**
   * The Redis to use: a started container exposing 6379 (the service joins its network), or a URL the
   * container and the test's process can both reach. Without it, one is started.
   */
  withRedis(redis: RedisSource): this {
    this.redis = redis;
    return this;
  }

  /** Which processes run: `all` (the default), `api` (no event workers) or `workers` (no API). */
  withRole(role: Role): this {
    return this.withEnvironment({ ROLE: role });
  }

  /** The token of the queue dashboard at `/admin/queues` (ADMIN_TOKEN); without it, there is none. */
  withAdminToken(token: string): this {
    this.adminToken = token;
    return this.withEnvironment({ ADMIN_TOKEN: token });
  }

  /**
   * Runs the SMTP listener that takes bounce messages (SMTP_PORT) on `port` in the container, exposed
   * on the host at `getSmtpPort()`. It runs with the workers: not with `withRole('api')`.
   */
  withSmtpPort(port: number = DEFAULT_SMTP_PORT): this {
    this.smtpPort = port;
    return this.withExposedPorts(port).withEnvironment({ SMTP_PORT: String(port), SMTP_HOST: '0.0.0.0' });
  }

  override async start(): Promise<StartedSuppressionListContainer> {
    const startId = randomUUID();
    const stores = await startBackingStores({
      postgres: this.postgres,
      redis: this.redis,
      network: this.networkMode,
      startupTimeoutMs: this.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
      startId,
    });
    try {
      if (stores.network !== undefined) this.withNetworkMode(stores.network);
      this.withEnvironment({ DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redisUrl });
      this.withLabels({ [START_LABEL]: startId });
      const started = await super.start().catch(async (error: unknown) => {
        // A service container whose start failed is not handed back, and its stores must go too.
        await removeStarted(startId).catch(() => undefined);
        throw error;
      });
      try {
        // One account's two keys at once: the account is made by whichever comes first.
        const [full, sending] = await Promise.all([
          issueApiKey(started, { account: DEFAULT_ACCOUNT, permission: 'full_access' }),
          issueApiKey(started, { account: DEFAULT_ACCOUNT, permission: 'sending_access' }),
        ]);
        return new StartedSuppressionListContainer(started, {
          accountId: full.accountId,
          apiKey: full.token,
          sendingApiKey: sending.token,
          hostRedisUrl: stores.hostRedisUrl,
          queuePrefix: this.environment.QUEUE_PREFIX,
          smtpPort: this.smtpPort,
          adminToken: this.adminToken,
          stores,
        });
      } catch (error) {
        await started.stop().catch(() => undefined);
        throw error;
      }
    } catch (error) {
      await stores.stop().catch(() => undefined);
      throw error;
    }
  }
}
