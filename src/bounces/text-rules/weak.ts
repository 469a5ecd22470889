import { inEveryLanguage } from './languages/index.js';
import type { TextRule } from './text-rule.js';

const tryLater = inEveryLanguage('tryLater');
const refused = inEveryLanguage('refused');

/**
 * Words that decide only when neither the strong rules nor the status code does: the formulas of
 * RFC 5321's replies ("mailbox unavailable", "service unavailable", "command not implemented"), a
 * refusal of the recipient that gives no reason, the stage of the
 * dialogue a refusal came at, and bare words of refusal ("denied", "rejected"), which servers write
 * for every kind of refusal. An enhanced status says more than any of these: "in reply to end of
 * DATA" with `4.3.0` is the server failing, not the message refused.
 */
export const WEAK_TEXT_RULES: readonly TextRule[] = [
  {
    reason: 'user_unknown',
    // `@` is an address: "<jane@example.com> rejected".
    phrases: [
      'recipient address rejected',
      'address rejected',
      'recipient rejected',
      'rejected recipient',
      '@ rejected',
    ],
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
      'misconfigured',
      'configuration error',
      'syntax error',
      'command unrecognized',
      'command not recognized',
      'not implemented',
      'protocol error',
      'transaction failed',
      'aborted',
      'error in processing',
      'could not be processed',
      ...tryLater.phrases,
    ],
  },
  {
    // The stage a refusal came at, which says it is about the message, and nothing more.
    reason: 'content_rejected',
    phrases: ['in reply to data', 'in reply to end of data', 'after end of data', 'after data', 'after the data'],
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
      ...refused.phrases,
    ],
  },
];
