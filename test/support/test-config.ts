import type { AppDeps } from '../../api/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import type { DueDelivery } from '../../src/webhooks/delivery.js';

/**
 * The settings a test may change, by the names the tests have always used; each becomes its
 * environment variable and goes through `loadConfig`, so a test's app has the defaults, the
 * parsing and the validation of a real one.
 */
export interface TestSettings extends Pick<
  AppDeps,
  'metrics' | 'onRateLimitRedisFailure' | 'onRateLimitRejected' | 'imports' | 'reclassifications' | 'replicas'
> {
  /** Where the app logs; silent when absent. */
  logger?: Logger;
  rateLimitPerSecond?: number;
  authFailuresPerSecond?: number;
  authCacheTtlMs?: number;
  trustProxy?: boolean | number | string;
  metricsToken?: string;
  adminToken?: string;
  feeds?: { publish?: AppDeps['publishFeedEvents']; emailIdTag?: string; snsExtraCertHosts?: readonly string[] };
  webhooks?: {
    allowPrivateEndpoints?: boolean;
    privateCidrs?: readonly string[];
    queue?: (due: readonly DueDelivery[]) => Promise<void>;
  };
  /** `sessionTtlMs` is whole hours, as CONSOLE_SESSION_HOURS is. */
  console?: { dir?: string; sessionTtlMs?: number };
  /** Any other variable, as an operator would set it. */
  env?: NodeJS.ProcessEnv;
}

const HOUR_MS = 60 * 60 * 1000;

function hours(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  if (ms % HOUR_MS !== 0) throw new Error(`console.sessionTtlMs must be whole hours, not ${ms} ms`);
  return String(ms / HOUR_MS);
}

const text = (value: boolean | number | string | undefined): string | undefined =>
  value === undefined ? undefined : String(value);

/** `loadConfig` of the variables these settings name, over the defaults (logs silent). */
export function testConfig(settings: TestSettings = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: text(settings.rateLimitPerSecond),
    AUTH_FAILURES_PER_SECOND: text(settings.authFailuresPerSecond),
    AUTH_CACHE_TTL_MS: text(settings.authCacheTtlMs),
    TRUST_PROXY: text(settings.trustProxy),
    METRICS_TOKEN: settings.metricsToken,
    ADMIN_TOKEN: settings.adminToken,
    FEEDS_EMAIL_ID_TAG: settings.feeds?.emailIdTag,
    FEEDS_SNS_EXTRA_CERT_HOSTS: settings.feeds?.snsExtraCertHosts?.join(','),
    WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: text(settings.webhooks?.allowPrivateEndpoints),
    WEBHOOKS_PRIVATE_CIDRS: settings.webhooks?.privateCidrs?.join(','),
    CONSOLE_DIR: settings.console?.dir,
    CONSOLE_SESSION_HOURS: hours(settings.console?.sessionTtlMs),
    ...settings.env,
  });
}

/** The live things among the settings, as `createApp` takes them. */
export function testDeps(settings: TestSettings): Omit<AppDeps, 'db'> {
  return {
    logger: settings.logger ?? createLogger('silent'),
    metrics: settings.metrics,
    replicas: settings.replicas,
    onRateLimitRedisFailure: settings.onRateLimitRedisFailure,
    onRateLimitRejected: settings.onRateLimitRejected,
    imports: settings.imports,
    reclassifications: settings.reclassifications,
    publishFeedEvents: settings.feeds?.publish,
    queueDeliveries: settings.webhooks?.queue,
  };
}

/** A worker's config on a test's own queue: `loadConfig` of its prefix and of any other variables. */
export function queueConfig(prefix: string, env: NodeJS.ProcessEnv = {}): Config {
  return testConfig({ env: { QUEUE_PREFIX: prefix, ...env } });
}
