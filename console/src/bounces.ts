import type { BounceAction, BounceCategory } from './api.js';

/** What the console calls each bounce category, and what it means (the service's categories.ts). */
export const CATEGORIES: Record<BounceCategory, { label: string; meaning: string; defaultAction: BounceAction }> = {
  invalid_address: {
    label: 'Invalid address',
    meaning: 'The address or its domain does not exist.',
    defaultAction: 'suppress',
  },
  mailbox_unavailable: {
    label: 'Mailbox unavailable',
    meaning: 'The mailbox exists but cannot take mail now: it is full, or disabled.',
    defaultAction: 'count',
  },
  sender_blocked: {
    label: 'Sender blocked',
    meaning:
      'Refused because of the sender, not the address: a block list, reputation, authentication, content or a rate limit.',
    defaultAction: 'record',
  },
  delivery_failure: {
    label: 'Delivery failure',
    meaning: 'The road between the servers failed: the network, DNS, a time-out, or the message expired in the queue.',
    defaultAction: 'record',
  },
  auto_reply: {
    label: 'Automatic reply',
    meaning: 'An out-of-office or other automatic answer, not a bounce.',
    defaultAction: 'record',
  },
  unknown: {
    label: 'Unknown',
    meaning: 'Nothing in the bounce decides what it is.',
    defaultAction: 'count',
  },
};

export function categoryLabel(category: string): string {
  return (CATEGORIES as Record<string, { label: string } | undefined>)[category]?.label ?? category;
}

/** The actions as a choice reads them; the fieldset's hint says what each does. */
export const ACTIONS: Record<BounceAction, string> = {
  suppress: 'Suppress',
  count: 'Count',
  record: 'Record only',
};

/** The actions in a word or two, as a sentence names them. */
export const ACTION_NAMES: Record<BounceAction, string> = {
  suppress: 'suppress',
  count: 'count',
  record: 'record only',
};

/** The classifier's finer reasons, in words, each with its category. */
const REASONS: Record<string, [label: string, category: BounceCategory]> = {
  user_unknown: ['User unknown', 'invalid_address'],
  domain_unknown: ['Domain unknown', 'invalid_address'],
  bad_address_syntax: ['Malformed address', 'invalid_address'],
  address_moved: ['Address moved', 'invalid_address'],
  label_permanent: ['Permanent, by the provider’s label', 'invalid_address'],
  mailbox_full: ['Mailbox full', 'mailbox_unavailable'],
  mailbox_disabled: ['Mailbox disabled', 'mailbox_unavailable'],
  recipient_filter: ['Recipient’s filter', 'mailbox_unavailable'],
  mailbox_unavailable: ['Mailbox unavailable', 'mailbox_unavailable'],
  blocklisted: ['Sender on a block list', 'sender_blocked'],
  bad_reputation: ['Sender’s reputation', 'sender_blocked'],
  authentication: ['Authentication (SPF, DKIM, DMARC)', 'sender_blocked'],
  spam_content: ['Content looked like spam', 'sender_blocked'],
  content_rejected: ['Content rejected', 'sender_blocked'],
  policy: ['Receiver’s policy', 'sender_blocked'],
  rate_limited: ['Rate limited', 'sender_blocked'],
  relay_denied: ['Relaying denied', 'sender_blocked'],
  tls_required: ['TLS required', 'sender_blocked'],
  message_too_large: ['Message too large', 'sender_blocked'],
  sender_address: ['Sender address refused', 'sender_blocked'],
  provider_suppressed: ['On the provider’s suppression list', 'sender_blocked'],
  network_error: ['Network error', 'delivery_failure'],
  dns_error: ['DNS error', 'delivery_failure'],
  expired: ['Expired in the queue', 'delivery_failure'],
  remote_error: ['Receiving server’s error', 'delivery_failure'],
  mail_loop: ['Mail loop', 'delivery_failure'],
  out_of_office: ['Out of office', 'auto_reply'],
  challenge_response: ['Challenge-response', 'auto_reply'],
  unclassified: ['Unclassified', 'unknown'],
};

export function reasonLabel(reason: string): string {
  return REASONS[reason]?.[0] ?? reason.replace(/_/g, ' ');
}

export function reasonCategory(reason: string): BounceCategory | null {
  return REASONS[reason]?.[1] ?? null;
}

/** "40%", "0.5%", "<0.1%": a share of a total, for people. */
export function share(part: number, total: number): string {
  if (total === 0) return '0%';
  const percent = (part / total) * 100;
  if (percent > 0 && percent < 0.1) return '<0.1%';
  return `${percent < 10 && !Number.isInteger(percent) ? percent.toFixed(1) : Math.round(percent)}%`;
}

/** The share of bounces refused because of the sender above which the console warns. */
export const SENDER_BLOCKED_ALERT = 0.2;
