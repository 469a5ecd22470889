import type { BounceReason } from '../domain/bounce-categories.js';

/**
 * A provider's refusals because of its own list (SES and Resend `Suppressed` and
 * `OnAccountSuppressionList`, Mailgun `suppress-bounce`, `suppress-unsubscribe` and
 * `suppress-complaint`): an echo of a decision made earlier, often on evidence this service has
 * seen itself, not new evidence about the address. They decide before anything else, whatever text
 * they quote. Lower case.
 */
export const ECHO_SUB_TYPES: ReadonlySet<string> = new Set([
  'suppressed',
  'onaccountsuppressionlist',
  'suppress-bounce',
  'suppress-unsubscribe',
  'suppress-complaint',
]);

/**
 * The sub-type a feed gives a bounce it cannot pin on one recipient (one bounce of a message to
 * several, whose text names none of them): it says nothing about this address.
 */
export const RECIPIENT_UNIDENTIFIED = 'RecipientUnidentified';

/**
 * A provider's finer word for a bounce (SES and Resend `bounceSubType`, SendGrid
 * `bounce_classification`, Postmark `Type`, Mailgun `reason`), for a bounce whose text and codes
 * decide nothing. Keys are lower case; no two providers use one word for different things. Words that only restate the label (`General`,
 * `HardBounce`, `Unclassified`) are absent: like the label, they decide nothing.
 */
export const SUB_TYPE_RULES: Readonly<Record<string, BounceReason>> = {
  noemail: 'user_unknown',
  mailboxfull: 'mailbox_full',
  messagetoolarge: 'message_too_large',
  contentrejected: 'content_rejected',
  attachmentrejected: 'content_rejected',
  'invalid address': 'user_unknown',
  'mailbox unavailable': 'mailbox_unavailable',
  technical: 'remote_error',
  content: 'content_rejected',
  reputation: 'bad_reputation',
  'frequency or volume': 'rate_limited',
  bademailaddress: 'bad_address_syntax',
  blocked: 'policy',
  dmarcpolicy: 'authentication',
  dnserror: 'dns_error',
  spamnotification: 'spam_content',
  virusnotification: 'spam_content',
  autoresponder: 'out_of_office',
  challengeverification: 'challenge_response',
  addresschange: 'address_moved',
  manuallydeactivated: 'mailbox_disabled',
  espblock: 'policy',
  old: 'expired',
};

/**
 * Provider labels, by what they claim: a permanent failure or not. Keys lower case; a label not
 * here claims nothing.
 */
export const PERMANENT_LABELS: ReadonlySet<string> = new Set([
  'permanent',
  'hard',
  'hardbounce',
  'hard_bounce',
  'bounce',
]);

/**
 * Orange's and La Poste's codes (`OFR_416`, `OFR004_104`, `LPN007_420`, `LPNAAA_101`): their last
 * three digits, as Orange's postmaster documents them. Codes that only say "try again later"
 * (105, 107, 108, 109, 201, 423, 424, 513) are absent: the rest of the evidence decides.
 */
export const ORANGE_CODES: Readonly<Record<string, BounceReason>> = {
  '101': 'blocklisted',
  '102': 'blocklisted',
  '103': 'bad_reputation',
  '104': 'rate_limited',
  '305': 'relay_denied',
  '401': 'authentication',
  '402': 'relay_denied',
  '403': 'sender_address',
  '405': 'sender_address',
  '415': 'sender_address',
  '416': 'user_unknown',
  '417': 'mailbox_full',
  '420': 'mailbox_disabled',
  '421': 'sender_address',
  '426': 'mailbox_disabled',
  '505': 'remote_error',
  '506': 'spam_content',
  '510': 'bad_reputation',
  '514': 'message_too_large',
  '517': 'authentication',
  '630': 'policy',
  '999': 'blocklisted',
};

/** The prefixes of Orange's and La Poste's codes, as words: `ofr`, `ofr004`, `lpn007`, `lpnaaa`, `ouk`. */
export const ORANGE_CODE_PREFIXES: readonly string[] = ['ofr', 'lpn', 'ouk'];
