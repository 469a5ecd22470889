import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { SERVER_TIMEOUTS, type Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import { withTimeout } from '../../with-timeout.js';
import type { MailProducer } from '../messages/mail-producer.js';
import { acceptedDomains, isAcceptedRecipient } from './accepted-recipients.js';
import { clientRateLimit } from './client-rate-limit.js';
import { openSessions } from './open-sessions.js';
import { readMessage } from './read-message.js';
import { queuedReply, REFUSALS, SHUTTING_DOWN } from './replies.js';
import { readListenerTls } from './tls-files.js';

export type MailListenerConfig = Pick<
  Config,
  | 'SMTP_HOST'
  | 'SMTP_PROTOCOL'
  | 'SMTP_HOSTNAME'
  | 'SMTP_MAX_CONNECTIONS'
  | 'SMTP_MESSAGES_PER_MINUTE_PER_CLIENT'
  | 'SMTP_TLS_CERT_FILE'
  | 'SMTP_TLS_KEY_FILE'
  | 'BOUNCE_DOMAINS'
  | 'MAIL_UNSIGNED_DOMAINS'
  | 'MAIL_MAX_MESSAGE_BYTES'
> & { SMTP_PORT: number };

export interface MailListenerDeps {
  /** Where messages go; the caller opens and closes it. */
  producer: Pick<MailProducer, 'queue'>;
  logger: Logger;
  metrics?: Metrics | undefined;
}

export interface MailListener {
  /** The port it listens on: SMTP_PORT, or the one the system chose for 0. */
  readonly port: number;
  /**
   * Stops taking connections, closes the idle sessions with 421, lets those inside a message finish
   * (their reply sent, then 421) and closes whatever is left after the shutdown grace.
   */
  close(): Promise<void>;
}

/** RFC 5321 (4.5.3.2.7): a server waits at least five minutes for a client's next command. */
const SOCKET_TIMEOUT_MS = 5 * 60_000;
/** How long a message waits for Redis before the client hears 451, well inside the shutdown grace. */
const QUEUE_TIMEOUT_MS = 5000;
/** A bounce or a complaint has one recipient; a relay that batches more sends them in turns. */
const MAX_RECIPIENTS = 100;
/**
 * The library's own connection limit counts the sockets not yet greeted too (it watches each for
 * 100 ms for a client that talks too soon) and answers without a status code: a guard far above
 * SMTP_MAX_CONNECTIONS against a flood of sockets, while the listener's own limit answers the MTAs.
 */
const SOCKET_GUARD_FACTOR = 4;
/**
 * Connections the kernel holds before the listener takes them (capped by net.core.somaxconn). With
 * Node's 511, a burst of MTAs connecting at once (a queue flushed after an outage) loses SYNs, which
 * their TCP sends again only a second or more later; these wait their turn instead.
 */
const ACCEPT_BACKLOG = 4096;

/**
 * The SMTP or LMTP listener that takes bounces and complaints from mail servers for the bounce
 * domains, and queues each message for the mail worker; it answers 250 only once Redis holds it.
 */
export async function startMailListener(config: MailListenerConfig, deps: MailListenerDeps): Promise<MailListener> {
  const { producer, logger, metrics } = deps;
  const source = config.SMTP_PROTOCOL;
  const domains = acceptedDomains(config.BOUNCE_DOMAINS, config.MAIL_UNSIGNED_DOMAINS);
  const limit = clientRateLimit(config.SMTP_MESSAGES_PER_MINUTE_PER_CLIENT);
  const tls = readListenerTls({ certFile: config.SMTP_TLS_CERT_FILE, keyFile: config.SMTP_TLS_KEY_FILE });
  const sessions = openSessions((size) => metrics?.smtpConnections.set(size));
  const maxBytes = config.MAIL_MAX_MESSAGE_BYTES;
  let stopping = false;

  const options: SMTPServerOptions = {
    lmtp: source === 'lmtp',
    name: config.SMTP_HOSTNAME ?? hostname(),
    banner: 'bounces and complaints only',
    size: maxBytes,
    // MTAs deliver bounces without authenticating; STARTTLS only with a certificate of the operator's.
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ?? {}),
    // A reverse lookup would send DNS queries for every client and decides nothing here.
    disableReverseLookup: true,
    maxClients: SOCKET_GUARD_FACTOR * config.SMTP_MAX_CONNECTIONS,
    maxRecipients: MAX_RECIPIENTS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    closeTimeout: SERVER_TIMEOUTS.shutdownGraceMs,
    // The library logs addresses at info; the listener logs what it decides, addresses at debug only.
    logger: false,

    onConnect(session, callback) {
      if (sessions.size >= config.SMTP_MAX_CONNECTIONS) {
        metrics?.smtpConnectionsRefused.inc();
        // Debug only: a flood of connections must not become a flood of log lines; the metric counts them.
        logger.debug({ session: session.id, client: session.remoteAddress }, 'smtp connection refused: too many');
        return callback(REFUSALS.tooManyConnections());
      }
      sessions.opened(session.id);
      logger.debug({ session: session.id, client: session.remoteAddress }, 'smtp connection');
      callback();
    },

    onClose(session) {
      sessions.closed(session.id);
    },

    onMailFrom(address, session, callback) {
      limit.allows(session.remoteAddress).then(
        (allowed) => {
          if (allowed) return callback();
          metrics?.smtpMessages.inc({ outcome: 'rate_limited' });
          logger.info({ session: session.id, client: session.remoteAddress }, 'smtp client over its message rate');
          callback(REFUSALS.rateLimited());
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },

    onRcptTo(address, session, callback) {
      if (isAcceptedRecipient(address.address, domains)) return callback();
      metrics?.smtpMessages.inc({ outcome: 'refused_rcpt' });
      logger.info({ session: session.id }, 'smtp recipient refused: not at a bounce domain');
      logger.debug({ session: session.id, recipient: address.address }, 'smtp recipient refused');
      callback(REFUSALS.relayDenied());
    },

    onData(stream, session, callback) {
      sessions.enteredData(session.id);
      const envelope = {
        mail_from: session.envelope.mailFrom === false ? null : session.envelope.mailFrom.address || null,
        rcpt_to: session.envelope.rcptTo.map((recipient) => recipient.address),
      };
      void (async () => {
        const read = await readMessage(stream, maxBytes);
        if (read.outcome === 'aborted') {
          metrics?.smtpMessages.inc({ outcome: 'aborted' });
          logger.info({ session: session.id }, 'smtp client left during DATA; nothing queued');
          return callback(REFUSALS.aborted());
        }
        if (read.outcome === 'oversized') {
          metrics?.smtpMessages.inc({ outcome: 'refused_size' });
          logger.info({ session: session.id, bytes: read.bytes, limit: maxBytes }, 'smtp message refused: too big');
          return callback(REFUSALS.tooLarge(maxBytes));
        }
        try {
          const queued = await withTimeout(
            producer.queue(read.raw, { source, envelope }),
            QUEUE_TIMEOUT_MS,
            'Redis did not take the message',
          );
          metrics?.smtpMessages.inc({ outcome: 'queued' });
          logger.info(
            { session: session.id, jobId: queued.jobId, bytes: read.raw.length, recipients: envelope.rcpt_to.length },
            'smtp message queued',
          );
          callback(null, queuedReply(queued.digest));
        } catch (error) {
          metrics?.smtpMessages.inc({ outcome: 'queue_failed' });
          logger.warn({ session: session.id, reason: (error as Error).message }, 'smtp message not queued');
          callback(REFUSALS.queueFailed());
        }
      })().finally(() => {
        sessions.leftData(session.id);
        // The reply is written; a stopping listener lets the client go now rather than at the grace's end.
        if (stopping) connectionOf(session.id)?.send(421, SHUTTING_DOWN);
      });
    },
  };

  const server = new SMTPServer(options);
  const connectionOf = (id: string) => [...server.connections].find((connection) => connection.id === id);
  // Without a listener, a client's socket error would be thrown from the server's 'error' event.
  const onError = (error: Error & { code?: string }) =>
    logger.debug({ code: error.code, reason: error.message }, 'smtp connection error');

  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) =>
      reject(
        new Error(`The mail listener cannot listen on ${config.SMTP_HOST}:${config.SMTP_PORT}: ${error.message}`, {
          cause: error,
        }),
      );
    server.once('error', failed);
    server.listen(config.SMTP_PORT, config.SMTP_HOST, ACCEPT_BACKLOG, () => {
      server.off('error', failed);
      resolve();
    });
  });
  server.on('error', onError);
  const { port } = server.server.address() as AddressInfo;
  logger.info(
    { host: config.SMTP_HOST, port, protocol: source, starttls: tls !== undefined, domains: [...domains] },
    `mail listener (${source.toUpperCase()}) on ${config.SMTP_HOST}:${port}`,
  );

  return {
    port,
    async close() {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(resolve));
      for (const connection of server.connections) {
        if (!sessions.inData(connection.id)) connection.send(421, SHUTTING_DOWN);
      }
      await closed;
      logger.info('mail listener stopped');
    },
  };
}
