import { setTimeout as sleep } from 'node:timers/promises';
import { ImapFlow, type Logger as ImapLogger } from 'imapflow';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import { imapMailbox, type ImapMailbox, type ImapMailboxConfig } from './imap-mailbox.js';
import { whileHoldingMailbox } from './mailbox-lock.js';
import { pollMailbox } from './poll-mailbox.js';

export type ImapPollerConfig = ImapMailboxConfig & Pick<Config, 'MAIL_MAX_MESSAGE_BYTES'>;

export interface ImapPollerDeps {
  db: Database;
  logger: Logger;
  metrics?: Metrics | undefined;
  /** Queues a message of the mailbox; resolves once Redis holds it (`createMailProducer(...).queue`). */
  queue(raw: Buffer, how: { source: 'imap'; receivedAt: Date }): Promise<unknown>;
}

export interface ImapPoller {
  /** Ends the poll after the message in hand, logs out and stops. */
  close(): Promise<void>;
}

/** How long the poller waits before it connects again after a failure: doubling, up to a minute. */
export const RECONNECT_BACKOFF = { firstMs: 1000, maxMs: 60_000 };

/** How soon after the last command the connection IDLEs (or, without IDLE, polls with NOOP). */
const AUTO_IDLE_DELAY_MS = 1000;

/** The reason of a failure, without what the server said back (which may name the user). */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code } = error as Error & { code?: unknown };
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
}

/** ImapFlow's own log lines hold the user and the addresses of the messages: debug only. */
function imapLogger(logger: Logger): ImapLogger {
  const child = logger.child({ component: 'imapflow' });
  const debug = (entry: unknown): void => child.debug(entry);
  return { debug, info: debug, warn: debug, error: debug };
}

/**
 * Reads the mailbox IMAP_URL names, for as long as it runs: looks at it every IMAP_POLL_SECONDS
 * and whenever the server announces new mail (IDLE, when offered), and takes each message as
 * `pollMailbox` says. A lost connection is made again, waiting longer after each failure; a poll
 * that could not queue a message (Redis away) leaves it for the next one.
 */
export function startImapPoller(config: ImapPollerConfig, deps: ImapPollerDeps): ImapPoller | null {
  const named = imapMailbox(config);
  if (named === null) return null;
  const mailbox: ImapMailbox = named;
  const { logger } = deps;
  const stopping = new AbortController();
  let client: ImapFlow | undefined;
  let polling = false;

  const count = (outcome: string): void => deps.metrics?.imapMessages.inc({ outcome });
  const connected = (up: boolean): void => deps.metrics?.imapConnected.set({ mailbox: mailbox.where }, up ? 1 : 0);
  const pollDeps = {
    db: deps.db,
    logger,
    queue: (raw: Buffer, receivedAt: Date) => deps.queue(raw, { source: 'imap', receivedAt }),
    maxBytes: config.MAIL_MAX_MESSAGE_BYTES,
    after: config.IMAP_AFTER,
    count,
    stopping: () => stopping.signal.aborted,
  };

  /** Resolves when the server announced new mail, the poll interval passed, the connection closed or the poller stops. */
  function news(connection: ImapFlow, announced: { value: boolean }): Promise<void> {
    if (announced.value) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        connection.off('exists', done);
        connection.off('close', done);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, config.IMAP_POLL_SECONDS * 1000);
      connection.on('exists', done);
      connection.on('close', done);
      stopping.signal.addEventListener('abort', done);
    });
  }

  let failures = 0;

  /** One connection, from its login until it fails or the poller stops. */
  async function session(connection: ImapFlow): Promise<void> {
    await connection.connect();
    failures = 0;
    connected(true);
    logger.info(
      { mailbox: mailbox.where, idle: connection.capabilities.has('IDLE'), after: config.IMAP_AFTER.action },
      'reading the IMAP mailbox',
    );
    const announced = { value: false };
    connection.on('exists', () => (announced.value = true));
    while (!stopping.signal.aborted && connection.usable) {
      announced.value = false;
      polling = true;
      try {
        const held = await whileHoldingMailbox(deps.db, mailbox.key, async () => {
          const taken = await pollMailbox(connection, mailbox, pollDeps);
          if (taken > 0) logger.info({ mailbox: mailbox.where, messages: taken }, 'IMAP mailbox read');
        });
        if (!held) logger.debug({ mailbox: mailbox.where }, 'another process is reading the mailbox');
      } catch (error) {
        // A poll that failed with the connection still up (Redis or the database away) is tried
        // again at the next one; a connection that failed is made again.
        if (!connection.usable) throw error;
        logger.warn(
          { mailbox: mailbox.where, reason: reason(error), retryInSeconds: config.IMAP_POLL_SECONDS },
          'IMAP poll stopped: the rest waits for the next poll',
        );
      } finally {
        polling = false;
      }
      await news(connection, announced);
    }
    if (!stopping.signal.aborted) throw new Error('the server closed the connection');
  }

  const running = (async () => {
    while (!stopping.signal.aborted) {
      const connection = new ImapFlow({
        ...mailbox.connection,
        logger: imapLogger(logger),
        autoIdleDelay: AUTO_IDLE_DELAY_MS,
        connectionTimeout: 30_000,
        // The largest source it fetches is MAIL_MAX_MESSAGE_BYTES: a server that sends more is refused.
        maxLiteralSize: config.MAIL_MAX_MESSAGE_BYTES + 2 ** 20,
      });
      // Without a listener an 'error' event would end the process; the failure is reported below.
      connection.on('error', (error: unknown) => logger.debug({ reason: reason(error) }, 'IMAP connection error'));
      client = connection;
      connected(false);
      try {
        await session(connection);
      } catch (error) {
        connected(false);
        if (stopping.signal.aborted) break;
        failures += 1;
        const waitMs = Math.min(RECONNECT_BACKOFF.firstMs * 2 ** (failures - 1), RECONNECT_BACKOFF.maxMs);
        logger.warn(
          { mailbox: mailbox.where, reason: reason(error), failures, retryInMs: waitMs },
          'IMAP connection failed: connecting again',
        );
        connection.close();
        await sleep(waitMs, undefined, { signal: stopping.signal }).catch(() => undefined);
        continue;
      }
      if (connection.usable) await connection.logout().catch(() => connection.close());
      else connection.close();
    }
  })();

  return {
    async close() {
      stopping.abort();
      // A connection being made or idling has nothing in hand: it is cut; a poll ends its message first.
      if (!polling) client?.close();
      await running;
      if (client?.usable) await client.logout().catch(() => client?.close());
    },
  };
}
