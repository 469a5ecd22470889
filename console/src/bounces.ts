import { BOUNCE_REASONS, type BounceAction, type BounceCategory, type BounceReason } from './api.js';

/** What the console calls each bounce category, and what it means (src/domain/bounce-categories.ts). */
export const CATEGORIES: Record<BounceCategory, { label: string; meaning: string }> = {
  invalid_address: {
    label: 'Invalid address',
    meaning: 'The address or its domain does not exist.',
  },
  mailbox_unavailable: {
    label: 'Mailbox unavailable',
    meaning: 'The mailbox exists but cannot take mail now: it is full, or disabled.',
  },
  sender_blocked: {
    label: 'Sender blocked',
    meaning:
      'Refused because of the sender, not the address: a block list, reputation, authentication, content or a rate limit.',
  },
  delivery_failure: {
    label: 'Delivery failure',
    meaning: 'The road between the servers failed: the network, DNS, a time-out, or the message expired in the queue.',
  },
  auto_reply: {
    label: 'Automatic reply',
    meaning: 'An out-of-office or other automatic answer, not a bounce.',
  },
  unknown: {
    label: 'Unknown',
    meaning: 'Nothing in the bounce decides what it is.',
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

/** The classifier's finer reasons, in words; each one's category is the service's (BOUNCE_REASONS). */
const REASON_LABELS: Record<BounceReason, string> = {
  user_unknown: 'User unknown',
  domain_unknown: 'Domain unknown',
  bad_address_syntax: 'Malformed address',
  address_moved: 'Address moved',
  mailbox_full: 'Mailbox full',
  mailbox_disabled: 'Mailbox disabled',
  recipient_filter: 'Recipient’s filter',
  mailbox_unavailable: 'Mailbox unavailable',
  blocklisted: 'Sender on a block list',
  bad_reputation: 'Sender’s reputation',
  authentication: 'Authentication (SPF, DKIM, DMARC)',
  spam_content: 'Content looked like spam',
  content_rejected: 'Content rejected',
  policy: 'Receiver’s policy',
  rate_limited: 'Rate limited',
  relay_denied: 'Relaying denied',
  tls_required: 'TLS required',
  message_too_large: 'Message too large',
  sender_address: 'Sender address refused',
  provider_suppressed: 'On the provider’s suppression list',
  network_error: 'Network error',
  dns_error: 'DNS error',
  expired: 'Expired in the queue',
  remote_error: 'Receiving server’s error',
  mail_loop: 'Mail loop',
  out_of_office: 'Out of office',
  challenge_response: 'Challenge-response',
  recipient_unidentified: 'Recipient unidentified',
  label_permanent: 'Unexplained; the provider labelled it permanent',
  unclassified: 'Unclassified',
};

/** Whether the service names this reason: the answers carry reasons as plain strings. */
function isReason(reason: string): reason is BounceReason {
  return Object.hasOwn(BOUNCE_REASONS, reason);
}

export function reasonLabel(reason: string): string {
  return isReason(reason) ? REASON_LABELS[reason] : reason.replace(/_/g, ' ');
}

export function reasonCategory(reason: string): BounceCategory | null {
  return isReason(reason) ? BOUNCE_REASONS[reason] : null;
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
