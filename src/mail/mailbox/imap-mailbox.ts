import { isIP } from 'node:net';
import type { ImapFlowOptions } from 'imapflow';
import type { Config } from '../../config.js';

export type ImapMailboxConfig = Pick<
  Config,
  'IMAP_URL' | 'IMAP_PASSWORD' | 'IMAP_POLL_SECONDS' | 'IMAP_AFTER' | 'IMAP_TLS_REJECT_UNAUTHORIZED'
>;

/** The mailbox IMAP_URL names: where to connect, and which folder to read. */
export interface ImapMailbox {
  /** The mailbox without its password, as its checkpoint is kept: `imaps://<user>@<host>:<port>/<folder>`. */
  key: string;
  /** For logs above debug: the server and folder, without the user (often an address). */
  where: string;
  folder: string;
  connection: Pick<ImapFlowOptions, 'host' | 'port' | 'secure' | 'auth' | 'tls'>;
}

const DEFAULT_PORTS = { 'imaps:': 993, 'imap:': 143 } as const;

/** Reads IMAP_URL (validated by the config) and its password into what ImapFlow takes. */
export function imapMailbox(config: ImapMailboxConfig): ImapMailbox | null {
  if (config.IMAP_URL === undefined || config.IMAP_PASSWORD === undefined) return null;
  const url = new URL(config.IMAP_URL);
  const secure = url.protocol === 'imaps:';
  const port = url.port === '' ? DEFAULT_PORTS[secure ? 'imaps:' : 'imap:'] : Number(url.port);
  const folder = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || 'INBOX';
  const user = decodeURIComponent(url.username);
  // A host in brackets is an IPv6 address; the socket takes it bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    key: `${url.protocol}//${url.username}@${url.hostname}:${port}/${encodeURIComponent(folder)}`,
    where: `${url.protocol}//${url.hostname}:${port}/${folder}`,
    folder,
    connection: {
      host,
      port,
      secure,
      auth: { user, pass: config.IMAP_PASSWORD },
      // SNI takes a name, never an address.
      tls: {
        rejectUnauthorized: config.IMAP_TLS_REJECT_UNAUTHORIZED,
        ...(isIP(host) === 0 ? { servername: host } : {}),
      },
    },
  };
}
