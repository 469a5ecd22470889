import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import { redisEndpoint } from '../../redis.js';
import { createMailProducer } from '../messages/mail-producer.js';
import { startImapPoller, type ImapPollerConfig } from './imap-poller.js';
import { producerSettings } from '../../producer-queue.js';

export interface MailboxPoller {
  close(): Promise<void>;
}

/**
 * The IMAP poller of IMAP_URL, queueing on the mail queue through a producer connection of its
 * own (which fails a message's queueing while Redis is away, rather than waiting); null when
 * IMAP_URL is unset.
 */
export function startMailboxPoller(
  config: ImapPollerConfig & Pick<Config, 'REDIS_URL' | 'REDIS_CLUSTER_NODES' | 'QUEUE_PREFIX' | 'REDIS_WAIT_REPLICAS'>,
  deps: { db: Database; logger: Logger; metrics?: Metrics | undefined },
): MailboxPoller | null {
  if (config.IMAP_URL === undefined) return null;
  const mail = createMailProducer({
    connection: redisEndpoint(config),
    ...producerSettings(config),
    connectTimeoutMs: 5000,
    onError: (error) => deps.logger.debug({ reason: error.message }, 'IMAP poller redis error'),
  });
  const poller = startImapPoller(config, { ...deps, queue: (raw, how) => mail.queue(raw, how) });
  return {
    async close() {
      await poller?.close();
      await mail.close();
    },
  };
}
