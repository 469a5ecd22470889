import type { BounceReason } from '../domain/bounce-categories.js';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/**
 * What an enhanced status code (RFC 3463, with the codes RFC 7372, 7505 and 8689 added) says by its
 * subject and detail, whatever its class: `4.2.2` and `5.2.2` are both a full mailbox. Codes that
 * say nothing on their own (`X.0.0`, `X.1.0`, `X.1.4`, `X.1.5`, `X.1.9`, `X.4.1`, `X.5.0`) are absent, so the next
 * evidence decides.
 */
export const STATUS_RULES: Readonly<Record<string, BounceReason>> = {
  '1.1': 'user_unknown',
  '1.2': 'domain_unknown',
  '1.3': 'bad_address_syntax',
  '1.6': 'address_moved',
  '1.7': 'sender_address',
  '1.8': 'sender_address',
  '1.10': 'domain_unknown',
  '2.1': 'mailbox_disabled',
  '2.2': 'mailbox_full',
  '2.3': 'message_too_large',
  '2.4': 'remote_error',
  '3.0': 'remote_error',
  '3.1': 'remote_error',
  '3.2': 'remote_error',
  '3.3': 'remote_error',
  '3.4': 'message_too_large',
  '3.5': 'remote_error',
  '4.0': 'network_error',
  '4.2': 'network_error',
  '4.3': 'dns_error',
  '4.4': 'network_error',
  '4.5': 'remote_error',
  '4.6': 'mail_loop',
  '4.7': 'expired',
  '5.1': 'remote_error',
  '5.2': 'remote_error',
  '5.3': 'rate_limited',
  '5.4': 'remote_error',
  '5.5': 'remote_error',
  '5.6': 'remote_error',
  '6.0': 'content_rejected',
  '6.1': 'content_rejected',
  '6.2': 'content_rejected',
  '6.3': 'content_rejected',
  '6.4': 'content_rejected',
  '6.5': 'content_rejected',
  '6.6': 'content_rejected',
  '6.7': 'content_rejected',
  '6.8': 'content_rejected',
  '6.9': 'content_rejected',
  '6.10': 'content_rejected',
  '7.0': 'policy',
  '7.1': 'policy',
  '7.2': 'policy',
  '7.3': 'policy',
  '7.4': 'tls_required',
  '7.5': 'tls_required',
  '7.6': 'tls_required',
  '7.7': 'policy',
  '7.8': 'relay_denied',
  '7.9': 'policy',
  '7.10': 'tls_required',
  '7.11': 'tls_required',
  '7.12': 'relay_denied',
  '7.13': 'mailbox_disabled',
  '7.14': 'policy',
  '7.15': 'policy',
  '7.16': 'message_too_large',
  '7.17': 'address_moved',
  '7.18': 'address_moved',
  '7.19': 'policy',
  '7.20': 'authentication',
  '7.21': 'authentication',
  '7.22': 'authentication',
  '7.23': 'authentication',
  '7.24': 'authentication',
  '7.25': 'bad_reputation',
  '7.26': 'authentication',
  '7.27': 'sender_address',
  '7.28': 'rate_limited',
  '7.29': 'authentication',
  '7.30': 'tls_required',
  // Exchange Online's own details (Microsoft's "Email non-delivery reports and SMTP errors in
  // Exchange Online"): 5.7.606 to 5.7.649, "Access denied, banned sending IP"; 5.7.700 to 5.7.749,
  // "Access denied, tenant has exceeded threshold"; 5.7.750, unregistered domains.
  ...Object.fromEntries(range(606, 649).map((detail) => [`7.${detail}`, 'blocklisted'] as const)),
  ...Object.fromEntries(range(700, 749).map((detail) => [`7.${detail}`, 'rate_limited'] as const)),
  '7.750': 'policy',
};

/**
 * What a status says by its subject alone, for a detail beyond those the IANA registry of enhanced
 * status codes holds (`registered`: the highest), which is a provider's own, such as Exchange
 * Online's `5.7.5xx`: every detail of the mail system (3), the network (4) and the protocol (5)
 * is a failure of the road; of the content (6), the message; of security or policy (7), a refusal
 * of the sender. A registered detail that says nothing alone (`X.4.1`) is left to the next evidence.
 */
export const STATUS_SUBJECT_RULES: Readonly<Record<string, { reason: BounceReason; registered: number }>> = {
  '3': { reason: 'remote_error', registered: 6 },
  '4': { reason: 'network_error', registered: 7 },
  '5': { reason: 'remote_error', registered: 6 },
  '6': { reason: 'content_rejected', registered: 10 },
  '7': { reason: 'policy', registered: 30 },
};

/**
 * What a reply code (RFC 5321) says alone, for a bounce with no enhanced status that decides. Most
 * codes (450, 550, 553, 554) are written for every kind of refusal and decide nothing.
 */
export const REPLY_CODE_RULES: Readonly<Record<string, BounceReason>> = {
  '421': 'remote_error',
  '451': 'remote_error',
  '452': 'remote_error',
  '500': 'remote_error',
  '501': 'remote_error',
  '502': 'remote_error',
  '503': 'remote_error',
  '504': 'remote_error',
  '530': 'relay_denied',
  '535': 'relay_denied',
  '551': 'address_moved',
  '552': 'mailbox_full',
};
