import { createHash } from 'node:crypto';
import { z } from 'zod';
import { UUID_PATTERN } from '../../domain/ids.js';

/** How a message reached the service. */
export const MAIL_SOURCES = ['smtp', 'lmtp', 'imap', 'upload'] as const;
export type MailSource = (typeof MAIL_SOURCES)[number];

/** The SMTP envelope of a message, where it came through SMTP or LMTP. */
export interface MailEnvelope {
  mail_from: string | null;
  rcpt_to: string[];
}

/** The envelope of a message that came through no SMTP transaction (an upload). */
export const NO_ENVELOPE: MailEnvelope = Object.freeze({ mail_from: null, rcpt_to: [] as string[] });

/**
 * A message queued on `MAIL_QUEUE`: its bytes (base64) and how it came. `account_id` is set for an
 * upload: the message then acts only for the account whose key uploaded it.
 */
export const mailJobSchema = z.object({
  raw: z.base64(),
  source: z.enum(MAIL_SOURCES),
  received_at: z.iso.datetime({ offset: true }),
  envelope: z.object({ mail_from: z.string().max(998).nullable(), rcpt_to: z.array(z.string().max(998)).max(1000) }),
  account_id: z.string().regex(UUID_PATTERN).optional(),
});
export type MailJob = z.output<typeof mailJobSchema>;

/** The message's digest: the same bytes, however often they arrive and by whichever way, are one message. */
export function mailDigest(raw: Buffer): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** One job per message while BullMQ remembers it (its ids may not contain `:`). */
export function mailJobId(digest: string): string {
  return `mail.${digest}`;
}
