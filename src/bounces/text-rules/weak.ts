import type { TextRule } from './text-rule.js';

/**
 * Words that decide only when neither the strong rules nor the status code does: the formulas of
 * RFC 5321's replies ("mailbox unavailable", "service unavailable"), a refusal of the recipient
 * that gives no reason, and bare words of refusal ("denied", "rejected"), which servers write for
 * every kind of refusal.
 */
export const WEAK_TEXT_RULES: readonly TextRule[] = [
  {
    reason: 'user_unknown',
    phrases: ['recipient address rejected', 'address rejected', 'recipient rejected', 'rejected recipient'],
  },
  {
    reason: 'mailbox_unavailable',
    phrases: [
      'mailbox unavailable',
      'mailbox not available',
      'mailbox is unavailable',
      'mailbox temporarily unavailable',
      'requested action not taken mailbox',
    ],
  },
  {
    reason: 'remote_error',
    phrases: [
      'system error',
      'internal error',
      'server error',
      'local error',
      'temporary error',
      'temporary failure',
      'temporarily unavailable',
      'service unavailable',
      'try again later',
      'please try again',
      'system full',
      'system storage',
      'resources',
      'not available',
      'unavailable',
      'mailer error',
      'mail system',
      'misconfigured',
      'configuration error',
      'syntax error',
      'command unrecognized',
      'command not recognized',
      'protocol error',
      'transaction failed',
      'aborted',
      'error in processing',
      'could not be processed',
    ],
  },
  {
    reason: 'policy',
    phrases: [
      'policy',
      'policies',
      'not authorized',
      'unauthorized',
      'not allowed',
      'not permitted',
      'prohibited',
      'denied',
      'refused',
      'administrative',
      'rejected',
      'reject',
      'message rejected',
      'message refused',
      'message not accepted',
      'banned',
      'forbidden',
      'restricted',
    ],
  },
];
