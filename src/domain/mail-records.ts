/** What one record of a mail message says about one recipient: a failure, a delay, a complaint, an automatic reply, or nothing. */
export const MAIL_RECORD_KINDS = ['bounce', 'delay', 'complaint', 'auto_reply', 'not_a_report'] as const;
export type MailRecordKind = (typeof MAIL_RECORD_KINDS)[number];

/**
 * Why a message acts for nobody:
 * - `no_return_path`: it came to no return path of the service and names none;
 * - `malformed`, `unknown_secret`, `bad_signature`, `retired_secret`: the return path's own problem,
 *   for the first one it came to;
 * - `other_message`: the return path is sound but was made for another message than the one the
 *   report encloses;
 * - `other_account`: uploaded with a key of another account than the return path's.
 */
export const UNVERIFIED_REASONS = [
  'no_return_path',
  'malformed',
  'unknown_secret',
  'bad_signature',
  'retired_secret',
  'other_message',
  'other_account',
] as const;
export type UnverifiedReason = (typeof UNVERIFIED_REASONS)[number];
