import express from 'express';
import { createAuthFailureLimit } from '../api/http/auth-failure-limit.js';
import { errorHandler, notFound } from '../api/http/errors.js';
import { apiSecurityHeaders } from '../api/http/security-headers.js';
import { closeConnectionsWhen } from '../api/http/stopping.js';
import { probesRouter } from '../api/ops/feature.js';
import { listen } from '../api/server.js';
import { REQUEST_BODY_LIMIT } from '../src/config.js';
import { createRedis, redisEndpoint } from '../src/redis.js';
import type { Runtime } from '../src/runtime.js';

export interface RunningProbes {
  url: string;
  /** From now on `/ready` answers 503: the process is stopping, whatever its checks say. */
  drain(): void;
  close(): Promise<void>;
}

/**
 * `/health`, `/ready` and `/metrics` on HOST:PORT for a process that runs the workers without the
 * API, so that an orchestrator can probe it and Prometheus scrape it; nothing else is served.
 */
export async function startProbeServer({ config, logger, db, metrics }: Runtime): Promise<RunningProbes> {
  // Readiness pings Redis over a fail-fast client of its own: the workers' connection waits out an
  // outage, which /ready must report at once.
  const redis = createRedis(redisEndpoint(config), 'request');
  redis.on('error', (error: unknown) => logger.warn({ err: error }, 'Redis (probes) connection error'));
  let stopping = false;
  metrics.collectProcessMetrics();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(
    apiSecurityHeaders(),
    closeConnectionsWhen(() => stopping),
  );
  // Wrong METRICS_TOKENs count per client address as they do on the API, so the token cannot be guessed here either.
  const failureLimit = createAuthFailureLimit({
    redis,
    logger,
    keyPrefix: config.REDIS_KEY_PREFIX,
    failuresPerSecond: config.AUTH_FAILURES_PER_SECOND,
    onRejected: () => metrics.rateLimitRejections.inc(),
  });
  app.use(
    probesRouter({
      db,
      metrics,
      redis,
      metricsToken: config.METRICS_TOKEN,
      failureLimit,
      stopping: () => stopping,
    }),
  );
  app.use(notFound);
  app.use(errorHandler(logger, REQUEST_BODY_LIMIT));
  const listening = await listen(app, config.HOST, config.PORT);
  logger.info({ url: listening.url }, 'probes listening');
  return {
    url: listening.url,
    drain: () => {
      stopping = true;
    },
    close: async () => {
      stopping = true;
      try {
        await listening.close();
      } finally {
        await redis.quit().catch(() => redis.disconnect());
      }
    },
  };
}
