import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { commaList, port, positiveInt, wholeNumber } from './config-values.js';
import { checkMailSettings, MAIL_SETTINGS } from './mail-config.js';
import { checkRedisSettings, REDIS_SETTINGS } from './redis-config.js';
import { readSecretFiles } from './secret-files.js';

/**
 * A CIDR as `network/bits`, or null: IPv4 in four-part decimal only (ipaddr.js would also read
 * `10/8`, and `010.0.0.0` as octal), IPv6 without a zone.
 */
function canonicalCidr(text: string): string | null {
  if (ipaddr.IPv4.isValidCIDRFourPartDecimal(text)) {
    return `${ipaddr.IPv4.networkAddressFromCIDR(text).toString()}/${ipaddr.IPv4.parseCIDR(text)[1]}`;
  }
  if (ipaddr.IPv6.isValidCIDR(text) && !text.includes('%')) {
    return `${ipaddr.IPv6.networkAddressFromCIDR(text).toString()}/${ipaddr.IPv6.parseCIDR(text)[1]}`;
  }
  return null;
}
const privateCidr = z.string().transform((text, context) => {
  const cidr = canonicalCidr(text);
  if (cidr !== null) return cidr;
  context.addIssue({
    code: 'custom',
    message: `each must be an IPv4 or IPv6 CIDR such as 10.20.0.0/16 or fd12:3456::/48, and "${text}" is not`,
  });
  return z.NEVER;
});

/** The largest JSON (and feed) request body the API reads; larger ones answer 413 `payload_too_large`. */
export const REQUEST_BODY_LIMIT = '1mb';

/** The HTTP server's limits on a request's arrival, and how long a stopping process takes. */
export const SERVER_TIMEOUTS = {
  /** A whole request, body included: a 100 MB import at 2.7 Mbit/s. */
  requestMs: 300_000,
  headersMs: 10_000,
  /** In-flight requests of a closing server finish within this, inside the process's own grace. */
  shutdownGraceMs: 8000,
  /** After a stop signal, the process exits by this time whatever is still running. */
  processGraceMs: 10_000,
} as const;

/**
 * How the workers batch and pace their work: what the tests and benchmarks vary, and an operator
 * has no reason to.
 */
export const WORKER_TUNING = {
  /** Events per multi-row statement, how long the first of a batch waits for company, batches written at once. */
  events: { batchSize: 500, batchDelayMs: 5, batchesInFlight: 2 },
  /** Batch jobs at once: each keeps one database connection busy. */
  batches: { concurrency: 2 },
} as const;

/**
 * What the producer library and the tools may be called without: the producers' queue prefix (the
 * workers' QUEUE_PREFIX by default too), and the database of a tool or a test, which waits longer
 * on a statement than a service answering requests does.
 */
export const LIBRARY_DEFAULTS = {
  queuePrefix: 'bull',
  database: { poolSize: 10, connectTimeoutMs: 1500, statementTimeoutMs: 10_000, applicationName: 'suppression-list' },
} as const;

/** What `suppression-list start` runs: the API and the workers, the API alone, or the workers alone. */
export const ROLES = ['all', 'api', 'workers'] as const;
export type Role = (typeof ROLES)[number];

/** The workers a process can run. */
export const WORKER_KINDS = ['events', 'batches', 'webhooks'] as const;
export type WorkerKind = (typeof WORKER_KINDS)[number];

const configSchema = z.object({
  NODE_ENV: z.string().default('development'),
  /**
   * What `suppression-list start` runs. `workers` serves only /health, /ready and /metrics on
   * HOST:PORT, for probes and scrapes.
   */
  ROLE: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }).default('all'),
  /**
   * After a stop signal, how long the API keeps serving with /ready answering 503, so that a load
   * balancer that watches /ready stops sending before the listener closes.
   */
  SHUTDOWN_DELAY_MS: wholeNumber.pipe(z.number().max(60_000, { error: 'must be at most 60000 (a minute)' })).default(0),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default('postgres://postgres@127.0.0.1:5432/postgres'),
  DATABASE_POOL_SIZE: positiveInt.default(LIBRARY_DEFAULTS.database.poolSize),
  /** Server-side limit on one statement; with the pool's 1.5 s connect timeout, a dead database answers 503 fast. */
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt.default(5000),
  /**
   * Streaming replicas of DATABASE_URL, a comma list of postgres URLs: the API's lookups, checks,
   * lists and exports read from them while they are no further behind than DATABASE_READ_MAX_LAG_MS.
   * Unset, every read is the primary's.
   */
  DATABASE_READ_URL: z
    .string()
    .transform((value) => [...new Set(commaList(value))])
    .pipe(
      z
        .array(z.url({ protocol: /^postgres(ql)?$/, error: 'each must be a postgres:// URL' }))
        .min(1, { error: 'must name at least one URL' }),
    )
    .optional(),
  /** How far behind the primary a replica may be, from WAL positions, and still be read from. */
  DATABASE_READ_MAX_LAG_MS: wholeNumber
    .pipe(z.number().min(1, { error: 'must be at least 1' }).max(60_000, { error: 'must be at most 60000 (a minute)' }))
    .default(1000),
  /**
   * Days the audit trail keeps its records: month partitions wholly older than this are dropped,
   * keeping the records that explain a current entry. Unset, everything is kept.
   */
  AUDIT_RETENTION_DAYS: positiveInt.optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  /** When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(1).optional(),
  /** When set, the queue dashboard is served at /admin/queues behind this token; unset, it does not exist. */
  ADMIN_TOKEN: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  QUEUE_PREFIX: z.string().min(1).default(LIBRARY_DEFAULTS.queuePrefix),
  WORKER_CONCURRENCY: positiveInt.default(1000),
  RATE_LIMIT_PER_SECOND: positiveInt.default(10),
  /** Per client address: failed authentications a second before its requests are refused unread. */
  AUTH_FAILURES_PER_SECOND: positiveInt.default(20),
  /** How long a key lookup is trusted, in milliseconds: a revoked key stops working within this time. */
  AUTH_CACHE_TTL_MS: wholeNumber
    .pipe(z.number().min(1, { error: 'must be at least 1' }).max(60_000, { error: 'must be at most 60000 (a minute)' }))
    .default(5000),
  /**
   * Express's `trust proxy`: unset, the client address is the connection's; behind a load balancer,
   * its hop count (`1`), `true`, or the proxies' addresses or subnets (`loopback, 10.0.0.0/8`).
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .min(1)
    .transform((value) =>
      value === 'true' ? true : value === 'false' ? false : /^[0-9]+$/.test(value) ? Number(value) : value,
    )
    .default(false),
  /**
   * The service's address as recipients reach it (`https://mail.example.com`), for the one-click
   * unsubscribe links in mail; without it, the address the request for the links came to.
   */
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  ...MAIL_SETTINGS,
  ...REDIS_SETTINGS,
  /** The message tag or metadata key whose UUID value becomes a feed event's `source_id`. */
  FEEDS_EMAIL_ID_TAG: z.string().trim().min(1).default('email_id'),
  /** `host:port`s trusted as SNS hosts besides SNS's own (for tests); plain HTTP only on loopback. */
  FEEDS_SNS_EXTRA_CERT_HOSTS: z.string().transform(commaList).default([]),
  /**
   * Lets webhook endpoints be http:// and resolve to private or loopback addresses, never to a cloud
   * metadata address: for development and tests only, since it lets API callers make the service
   * call its own network.
   */
  WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .default(false),
  /**
   * Private ranges webhook endpoints may be in, over https://, a comma list of IPv4 and IPv6 CIDRs:
   * the operator's own receivers, named, instead of every private address. Cloud metadata addresses
   * stay refused inside them.
   */
  WEBHOOKS_PRIVATE_CIDRS: z.string().transform(commaList).pipe(z.array(privateCidr)).default([]),
  /**
   * The workers a worker process (or `npm start`) runs: a comma list of `events`, `batches` (with the
   * maintenance worker, which runs the expiry sweep) and `webhooks`. Deliveries cost CPU; at volume
   * they go to processes of their own, off the ingest's.
   */
  WORKERS: z
    .string()
    .transform(commaList)
    .pipe(
      z
        .array(z.enum(WORKER_KINDS, { error: `each must be one of ${WORKER_KINDS.join(', ')}` }))
        .min(1, { error: 'must name at least one worker' }),
    )
    .transform((kinds) => [...new Set(kinds)])
    .default([...WORKER_KINDS]),
  /** `off`: the check and the lookups by address ask the database about every address, with no filter in front. */
  CHECK_FILTER: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  /** Entries the check found that each API process keeps to answer it again without a query (with the filter on); 0 keeps none. */
  CHECK_CACHE_ENTRIES: wholeNumber.default(50_000),
  /** Webhook deliveries in flight per worker process. */
  WEBHOOK_DELIVERY_CONCURRENCY: positiveInt.default(50),
  /** How long a console session lasts from its sign-in, in hours (up to 30 days). */
  CONSOLE_SESSION_HOURS: wholeNumber
    .pipe(z.number().min(1, { error: 'must be at least 1' }).max(720, { error: 'must be at most 720 (30 days)' }))
    .default(8),
  /**
   * OpenTelemetry's own variables that decide whether the service traces; its SDK reads these and
   * the rest of its `OTEL_*` settings itself (docs/operations.md, Traces).
   */
  OTEL_SDK_DISABLED: z.string().optional(),
  OTEL_TRACES_EXPORTER: z.string().optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
  /** The built console to serve at /console; unset, the dist/console that `npm run build` writes. */
  CONSOLE_DIR: z.string().trim().min(1).optional(),
});

/** Rules that tie variables together, checked once each has parsed. */
const checkedSchema = configSchema.superRefine((config, context) => {
  checkMailSettings(config, context);
  checkRedisSettings(config, context);
});

export type Config = Readonly<z.infer<typeof configSchema>>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment once; a bad value names the variable so the operator can fix it. Each
 * secret may come from the file its `<NAME>_FILE` names instead (`src/secret-files.ts`).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  const secrets = readSecretFiles(present);
  if (secrets.problems.length > 0) {
    throw new ConfigError(`Invalid configuration: ${secrets.problems.join('; ')}`);
  }
  const result = checkedSchema.safeParse(secrets.env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const file = secrets.readFrom.get(String(issue.path[0]));
      return `${file === undefined ? name : `${name} (read from ${file})`}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return Object.freeze(result.data);
}
