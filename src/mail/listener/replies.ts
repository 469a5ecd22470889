import type { SMTPServerError } from 'smtp-server';

/**
 * The listener's refusals, each with its RFC 3463 status code at the start of its text: the
 * library's own replies carry none, so ENHANCEDSTATUSCODES is not advertised, and MTAs read the
 * code from the text as they do from any server.
 */
function reply(code: number, text: string): SMTPServerError {
  return Object.assign(new Error(text), { responseCode: code });
}

export const REFUSALS = {
  /** RCPT TO outside the bounce domains: this is no relay. */
  relayDenied: () => reply(550, '5.7.1 Relay access denied: this server takes mail only for its bounce domains'),
  /** A message over MAIL_MAX_MESSAGE_BYTES. */
  tooLarge: (limit: number) => reply(552, `5.3.4 Message too big: the limit is ${limit} bytes`),
  /** Redis did not take the message: the MTA keeps it and tries again. */
  queueFailed: () => reply(451, '4.3.0 Message not stored, try again later'),
  /** The client address began more messages this minute than it may. */
  rateLimited: () => reply(450, '4.7.1 Too much mail from your address, try again later'),
  /** The listener holds SMTP_MAX_CONNECTIONS already: the MTA comes back later, as after any 4xx greeting. */
  tooManyConnections: () => reply(421, '4.3.2 Too many connections, try again later'),
  /** The client left before the end of DATA: nobody reads this reply, and nothing was queued. */
  aborted: () => reply(451, '4.4.2 Connection lost during DATA, nothing stored'),
} as const;

/** The reply to a message Redis holds: what MTAs log beside the delivery, its digest as queue id. */
export function queuedReply(digest: string): string {
  return `2.6.0 Queued as ${digest.slice(0, 16)}`;
}

/** Sent to the sessions still open when the listener stops, outside DATA. */
export const SHUTTING_DOWN = '4.3.2 Service shutting down, try again later';
