import { z } from 'zod';
import { commaList, DOMAIN_NAME, port, positiveInt, UUID, wholeNumber } from './config-values.js';

/** The largest mail message `POST /messages` reads, in bytes; `MAIL_MAX_MESSAGE_BYTES` may only lower it. */
export const MAIL_MESSAGE_LIMIT = 10 * 2 ** 20;

/**
 * The settings of mail from mail servers: where return paths are, the bounce domains, the SMTP and
 * LMTP listener and the IMAP mailbox. Part of the one configuration `src/config.ts` parses.
 */
export const MAIL_SETTINGS = {
  /**
   * The domains whose mailboxes take bounces and complaints, a comma list: a VERP return path
   * (`POST /return-paths`) is at one of them, the first unless the request names another. Unset, no
   * return path can be made.
   */
  BOUNCE_DOMAINS: z
    .string()
    .transform((value) => [...new Set(commaList(value).map((domain) => domain.toLowerCase()))])
    .pipe(
      z
        .array(z.string().regex(DOMAIN_NAME, { error: 'each must be a domain name such as bounces.example.com' }))
        .min(1, { error: 'must name at least one domain' }),
    )
    .default([]),
  /** The local part before a return path's `+token`: `bounces` makes `bounces+<token>@<domain>`. */
  BOUNCE_LOCAL_PART: z
    .string()
    .regex(/^[a-z0-9]+(?:[._-][a-z0-9]+)*$/, {
      error: 'must be lower-case letters and digits, with single `.`, `_` or `-` between them',
    })
    .max(32, { error: 'must be at most 32 characters' })
    .default('bounces'),
  /**
   * Days a return-path secret keeps verifying after it was rotated: longer than mail systems keep
   * trying a message (Postfix's 5 days), so that a late bounce of mail sent before still counts.
   */
  RETURN_PATH_SECRET_OVERLAP_DAYS: wholeNumber.pipe(z.number().max(365, { error: 'must be at most 365' })).default(7),
  /**
   * Bounce domains whose reports act without a return path, for the account named: a comma list of
   * `<domain>=<account id>`, for mail sent before the sender used VERP. Their reports act on the
   * recipients they name, so anyone who can mail the domain can suppress that account's addresses.
   */
  MAIL_UNSIGNED_DOMAINS: z
    .string()
    .transform((value, context) => {
      const pairs = new Map<string, string>();
      for (const item of commaList(value)) {
        const [domain = '', accountId = ''] = item.split('=').map((part) => part.trim().toLowerCase());
        if (!DOMAIN_NAME.test(domain) || !UUID.test(accountId)) {
          context.addIssue({ code: 'custom', message: `\`${item}\` must be <domain>=<account id>` });
          return z.NEVER;
        }
        pairs.set(domain, accountId);
      }
      return pairs;
    })
    .default(new Map()),
  /** The largest mail message read (SMTP, IMAP, `POST /messages`), in bytes: 10 MB. */
  MAIL_MAX_MESSAGE_BYTES: positiveInt
    .pipe(z.number().max(MAIL_MESSAGE_LIMIT, { error: `must be at most ${MAIL_MESSAGE_LIMIT} (10 MB)` }))
    .default(MAIL_MESSAGE_LIMIT),
  /**
   * The port of the SMTP (or LMTP) listener that takes bounces and complaints from mail servers, in
   * the workers process that runs the `events` workers. Unset, no listener.
   */
  SMTP_PORT: port.optional(),
  /** The address the mail listener binds to (`0.0.0.0` to take mail from other hosts). */
  SMTP_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** `smtp` for an MX or an MTA's relay, `lmtp` for an MTA's LMTP transport (one answer per recipient). */
  SMTP_PROTOCOL: z.enum(['smtp', 'lmtp'], { error: 'must be smtp or lmtp' }).default('smtp'),
  /** The name the listener gives in its greeting and its EHLO answer; unset, the machine's host name. */
  SMTP_HOSTNAME: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/, { error: 'must be a host name' })
    .optional(),
  /** Connections the mail listener holds at once; more are answered 421 and closed. */
  SMTP_MAX_CONNECTIONS: positiveInt.default(100),
  /** Messages one client address may begin a minute; past it, MAIL FROM is answered 450 (try later). */
  SMTP_MESSAGES_PER_MINUTE_PER_CLIENT: positiveInt.default(3000),
  /** A PEM certificate (chain) and its key: with both, the listener offers STARTTLS; without, it does not. */
  SMTP_TLS_CERT_FILE: z.string().trim().min(1).optional(),
  SMTP_TLS_KEY_FILE: z.string().trim().min(1).optional(),
  /**
   * The mailbox whose bounces the workers read, `imaps://<user>@<host>[:port]/<folder>` (or `imap://`,
   * which upgrades with STARTTLS when offered); its password is IMAP_PASSWORD. Unset, no mailbox is read.
   */
  IMAP_URL: z
    .url({
      protocol: /^imaps?$/,
      error: 'must be an imaps:// or imap:// URL such as imaps://bounces@mail.example.com/INBOX',
    })
    .refine((value) => new URL(value).username !== '', { error: 'must name the user: imaps://<user>@<host>/<folder>' })
    .refine((value) => new URL(value).password === '', { error: 'must not hold the password: set IMAP_PASSWORD' })
    .optional(),
  IMAP_PASSWORD: z.string().min(1).optional(),
  /** Seconds between two looks at the mailbox; a server that offers IDLE announces new mail sooner. */
  IMAP_POLL_SECONDS: positiveInt.pipe(z.number().max(3600, { error: 'must be at most 3600 (an hour)' })).default(60),
  /** What becomes of a message once queued: moved to a folder (made when missing), flagged `\Seen`, or kept as it is. */
  IMAP_AFTER: z
    .string()
    .trim()
    .regex(/^(move:\S.*|flag|keep)$/, { error: 'must be move:<folder>, flag or keep' })
    .transform((value) =>
      value.startsWith('move:')
        ? { action: 'move' as const, folder: value.slice('move:'.length).trim() }
        : { action: value as 'flag' | 'keep' },
    )
    .default({ action: 'move', folder: 'Processed' }),
  /** Whether the IMAP server's certificate must be valid for its name: `false` only for a server of one's own. */
  IMAP_TLS_REJECT_UNAUTHORIZED: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .default(true),
};

type MailSettings = z.output<z.ZodObject<typeof MAIL_SETTINGS>>;

/** The rules that tie the mail settings together, checked once each has parsed. */
export function checkMailSettings(config: MailSettings, context: z.RefinementCtx): void {
  if (config.IMAP_URL !== undefined && config.IMAP_PASSWORD === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['IMAP_PASSWORD'],
      message: 'must be set (or IMAP_PASSWORD_FILE) when IMAP_URL is',
    });
  }
  if ((config.SMTP_TLS_CERT_FILE === undefined) !== (config.SMTP_TLS_KEY_FILE === undefined)) {
    const [missing, given] =
      config.SMTP_TLS_CERT_FILE === undefined
        ? ['SMTP_TLS_CERT_FILE', 'SMTP_TLS_KEY_FILE']
        : ['SMTP_TLS_KEY_FILE', 'SMTP_TLS_CERT_FILE'];
    context.addIssue({ code: 'custom', path: [missing], message: `must be set when ${given} is: STARTTLS needs both` });
  }
  if (config.SMTP_PORT !== undefined && config.BOUNCE_DOMAINS.length === 0 && config.MAIL_UNSIGNED_DOMAINS.size === 0) {
    context.addIssue({
      code: 'custom',
      path: ['SMTP_PORT'],
      message: 'needs BOUNCE_DOMAINS (or MAIL_UNSIGNED_DOMAINS): the mail listener takes mail only for them',
    });
  }
}
