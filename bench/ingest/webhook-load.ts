/**
 * bench:ingest with webhooks: a webhook on some accounts, subscribed to both change events, pointed
 * at a receiver on loopback, and the webhook worker (dispatcher and deliveries) in the same process,
 * as it runs in a worker process.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Config } from '../../src/config.js';
import type { Database, Queryable } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import type { Logger } from '../../src/logger.js';
import { createRedis } from '../../src/redis.js';
import { newSigningSecret } from '../../src/webhooks/webhook.js';
import { startWebhookWorker, type WebhookWorker } from '../../workers/webhook-worker.js';
import type { CleanupStack } from '../common/cleanup.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { deletePrefix, freshPrefix } from '../common/redis-prefix.js';

export interface WebhookLoad {
  /** Waits until `expectedDeliveries` changes in all are delivered, and reports what was delivered so far. */
  drain(expectedDeliveries: number, deadline: Deadline): Promise<WebhookFigures>;
}

export interface WebhookFigures {
  webhooks: number;
  /** Deliveries the changes must make: one per new entry. */
  expected: number;
  /** Distinct `webhook-id`s the receiver answered 200. */
  delivered: number;
  /** Requests the receiver saw in all (more than `delivered` when attempts were repeated). */
  requests: number;
  /** From the end of the event ingest until the last delivery arrived (summed over rounds). */
  drainMs: number;
}

async function startReceiver(
  cleanup: CleanupStack,
): Promise<{ url: string; ids: Set<string>; requests: () => number }> {
  const ids = new Set<string>();
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      ids.add(String(req.headers['webhook-id']));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push('close webhook receiver', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, ids, requests: () => requests };
}

async function createWebhooks(db: Queryable, accountIds: readonly string[], endpoint: string): Promise<void> {
  await db.query({
    text: `INSERT INTO webhooks (id, account_id, endpoint, events, signing_secret)
           SELECT id, account_id, $3, '{suppression.added,suppression.removed}', secret
           FROM unnest($1::uuid[], $2::uuid[], $4::text[]) AS t(id, account_id, secret)`,
    values: [accountIds.map(() => newId()), accountIds, endpoint, accountIds.map(() => newSigningSecret())],
  });
}

/** Deliveries not yet made: in the outbox, or due. */
async function undelivered(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ count: number }>({
    text: `SELECT (SELECT count(*) FROM suppression_changes)
                + (SELECT count(*) FROM webhook_deliveries WHERE status IN ('pending', 'attempting'))::int AS count`,
  });
  return Number(rows[0]?.count ?? 0);
}

/**
 * Webhooks for these accounts, and the webhook worker: running until `cleanup` when deliveries go
 * beside the ingest, or only while `drain` waits when they wait for it (so the ingest pays for the
 * outbox alone).
 */
export async function startWebhookLoad(
  config: Config,
  db: Database,
  logger: Logger,
  accountIds: readonly string[],
  deliverBeside: boolean,
  cleanup: CleanupStack,
): Promise<WebhookLoad> {
  const receiver = await startReceiver(cleanup);
  await createWebhooks(db, accountIds, receiver.url);
  const prefix = freshPrefix('webhooks');
  const connection = createRedis(config.REDIS_URL, 'worker');
  cleanup.push('quit webhook worker connection', () => connection.quit());
  cleanup.push(`delete ${prefix} keys`, () => deletePrefix(connection, prefix));
  const startWorker = (): WebhookWorker =>
    startWebhookWorker(
      { ...config, QUEUE_PREFIX: prefix, WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: true },
      { db, logger, connection },
    );
  if (deliverBeside) {
    const worker = startWorker();
    cleanup.push('close webhook worker', () => worker.close());
  }
  return {
    async drain(expected, deadline) {
      const started = performance.now();
      const worker = deliverBeside ? undefined : startWorker();
      try {
        while ((await beforeDeadline(deadline, undelivered(db))) > 0 || receiver.ids.size < expected) {
          if (receiver.ids.size > expected) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await worker?.close();
      }
      return {
        webhooks: accountIds.length,
        expected,
        delivered: receiver.ids.size,
        requests: receiver.requests(),
        drainMs: performance.now() - started,
      };
    },
  };
}
