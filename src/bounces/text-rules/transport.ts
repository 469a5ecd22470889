import type { TextRule } from './text-rule.js';

/**
 * The sending server's own account of the connection, in the words Postfix and Exim write when no
 * reply of the receiving server was read: the connection broke or timed out, or every host of the
 * destination has failed for longer than the retry limit. Such a text quotes no refusal, so a
 * word of the SMTP dialogue in it ("while performing the HELO handshake") is the stage the road
 * broke at, not a reason the receiver gave.
 */
export const TRANSPORT_RULES: readonly TextRule[] = [
  {
    reason: 'expired',
    phrases: ['all hosts have been failing'],
  },
  {
    reason: 'network_error',
    phrases: ['lost connection with', 'conversation with ... timed out'],
  },
];
