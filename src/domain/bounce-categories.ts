/** What a bounce says about its recipient, decided by `classifyBounce`. */
export const BOUNCE_CATEGORIES = [
  'invalid_address',
  'mailbox_unavailable',
  'sender_blocked',
  'delivery_failure',
  'auto_reply',
  'unknown',
] as const;
export type BounceCategory = (typeof BOUNCE_CATEGORIES)[number];

/**
 * What a bounce of a category does: `suppress` puts the address on the list at once (origin
 * `bounce`), `count` counts toward the account's soft-bounce threshold, `record` keeps the record
 * and nothing else.
 */
export const BOUNCE_ACTIONS = ['suppress', 'count', 'record'] as const;
export type BounceAction = (typeof BOUNCE_ACTIONS)[number];

export type BounceActions = Record<BounceCategory, BounceAction>;

/**
 * Only a dead address is suppressed at once. A bounce that may pass (a full or disabled mailbox,
 * one nothing explains) counts toward the threshold; a refusal because of the sender, a failure of
 * the road between the two, or an automatic reply says nothing about the address and is recorded.
 */
export const DEFAULT_BOUNCE_ACTIONS: Readonly<BounceActions> = Object.freeze({
  invalid_address: 'suppress',
  mailbox_unavailable: 'count',
  sender_blocked: 'record',
  delivery_failure: 'record',
  auto_reply: 'record',
  unknown: 'count',
});

/** The finer reasons, each in exactly one category; docs/events.md has an example of each. */
export const BOUNCE_REASONS = {
  user_unknown: 'invalid_address',
  domain_unknown: 'invalid_address',
  bad_address_syntax: 'invalid_address',
  address_moved: 'invalid_address',
  mailbox_full: 'mailbox_unavailable',
  mailbox_disabled: 'mailbox_unavailable',
  recipient_filter: 'mailbox_unavailable',
  mailbox_unavailable: 'mailbox_unavailable',
  blocklisted: 'sender_blocked',
  bad_reputation: 'sender_blocked',
  authentication: 'sender_blocked',
  spam_content: 'sender_blocked',
  content_rejected: 'sender_blocked',
  policy: 'sender_blocked',
  rate_limited: 'sender_blocked',
  relay_denied: 'sender_blocked',
  tls_required: 'sender_blocked',
  message_too_large: 'sender_blocked',
  sender_address: 'sender_blocked',
  provider_suppressed: 'sender_blocked',
  network_error: 'delivery_failure',
  dns_error: 'delivery_failure',
  expired: 'delivery_failure',
  remote_error: 'delivery_failure',
  mail_loop: 'delivery_failure',
  out_of_office: 'auto_reply',
  challenge_response: 'auto_reply',
  recipient_unidentified: 'unknown',
  label_permanent: 'unknown',
  unclassified: 'unknown',
} as const satisfies Record<string, BounceCategory>;
export type BounceReason = keyof typeof BOUNCE_REASONS;
