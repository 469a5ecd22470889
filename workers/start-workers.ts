import type { Worker } from 'bullmq';
import type { WorkerKind } from '../src/config.js';
import { startMailListener, type MailListener } from '../src/mail/listener/mail-listener.js';
import { startMailboxPoller } from '../src/mail/mailbox/start-mailbox-poller.js';
import { createMailProducer, type MailProducer } from '../src/mail/messages/mail-producer.js';
import { createRedis, redisEndpoint } from '../src/redis.js';
import type { Runtime } from '../src/runtime.js';
import { startBatchWorker } from './batch-worker.js';
import { startEventWorker } from './event-worker.js';
import { startMailWorker } from './mail-worker.js';
import { startMaintenanceWorker } from './maintenance-worker.js';
import { startWebhookWorker } from './webhook-worker.js';
import { producerSettings } from '../src/producer-queue.js';

export interface RunningWorkers {
  close(): Promise<void>;
}

interface Started {
  worker: Worker;
  close(): Promise<void>;
}

/** Runs the queue workers of a runtime that `WORKERS` names, until closed. */
export async function startWorkers({ config, logger, db, metrics }: Runtime): Promise<RunningWorkers> {
  const connection = createRedis(redisEndpoint(config), 'worker');
  const deps = { db, logger, connection, metrics };
  const starters: Record<WorkerKind, () => Started[]> = {
    // The mail worker reads messages into events, so it runs where the events are decided.
    events: () => [startEventWorker(config, deps), startMailWorker(config, deps)],
    // Maintenance is light and periodic: it rides along with the batches, which also write in bulk.
    batches: () => [startBatchWorker(config, deps), startMaintenanceWorker(config, deps)],
    webhooks: () => [startWebhookWorker(config, deps)],
  };
  const running = config.WORKERS.flatMap((kind) => starters[kind]());
  await Promise.all(running.map((started) => started.worker.waitUntilReady()));
  logger.info(
    { workers: config.WORKERS, concurrency: config.WORKER_CONCURRENCY, prefix: config.QUEUE_PREFIX },
    `${config.WORKERS.join(', ')} workers running`,
  );
  const mail = await startListener(config, deps).catch(async (error: unknown) => {
    await Promise.all(running.map((started) => started.close()));
    await connection.quit();
    throw error;
  });
  // The IMAP poller, when IMAP_URL is set, reads the mailbox beside the mail worker.
  const mailbox = config.WORKERS.includes('events') ? startMailboxPoller(config, deps) : null;
  return {
    async close() {
      // The listener stops taking mail while the workers finish their jobs; its producer goes last.
      await Promise.all([mail?.listener.close(), mailbox?.close(), ...running.map((started) => started.close())]);
      await mail?.producer.close();
      await connection.quit();
    },
  };
}

/**
 * The SMTP/LMTP listener, when SMTP_PORT is set, beside the mail worker (`events`): its messages
 * queue through a producer connection of its own, which gives up on Redis rather than wait for it.
 */
async function startListener(
  config: Runtime['config'],
  deps: Pick<Runtime, 'logger' | 'metrics'>,
): Promise<{ listener: MailListener; producer: MailProducer } | undefined> {
  if (config.SMTP_PORT === undefined || !config.WORKERS.includes('events')) return undefined;
  const producer = createMailProducer({
    connection: redisEndpoint(config),
    ...producerSettings(config),
    connectTimeoutMs: 5000,
    onError: (error) => deps.logger.debug({ reason: error.message }, 'mail listener redis error'),
  });
  try {
    const listener = await startMailListener({ ...config, SMTP_PORT: config.SMTP_PORT }, { producer, ...deps });
    return { listener, producer };
  } catch (error) {
    await producer.close();
    throw error;
  }
}
