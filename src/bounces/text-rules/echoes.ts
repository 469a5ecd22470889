import { inEveryLanguage } from './languages/index.js';
import type { TextRule } from './text-rule.js';

/**
 * Echoes of a list (the provider's own suppression list) and automatic replies, which say nothing
 * new about the mailbox whatever else they quote; and a recipient's own filter.
 */
export const ECHO_RULES: readonly TextRule[] = [
  {
    reason: 'provider_suppressed',
    phrases: [
      'suppression list',
      'suppressed sending',
      'has suppressed',
      'address is suppressed',
      'previously bounced address',
      'previously bounced',
      'not delivering to previously',
      'unsubscribed address',
      'previously complained',
    ],
  },
  {
    reason: 'out_of_office',
    phrases: [
      'out of office',
      'out of the office',
      'away from the office',
      'away from my desk',
      'automatic reply',
      'auto reply',
      'autoreply',
      'auto response',
      'autoresponse',
      'autoresponder',
      'vacation',
      'on leave',
      'on holiday',
      'limited access to email',
      ...inEveryLanguage('outOfOffice').phrases,
    ],
  },
  {
    reason: 'challenge_response',
    phrases: [
      'challenge response',
      'verify that you are human',
      'confirm that you are a real',
      'sender verification request',
    ],
  },
  {
    reason: 'recipient_filter',
    phrases: [
      'recipient preferences',
      'recipients preferences',
      'user preferences',
      'recipient has blocked',
      'user has blocked',
      'blocked by the recipient',
      'blocked by recipient',
      'rejected by recipient',
      'recipient has chosen',
      'user has chosen',
      'sender is blocked by',
      'mailbox ... blocked',
      'account ... blocked',
      ...inEveryLanguage('recipientFilter').phrases,
    ],
  },
  {
    reason: 'user_unknown',
    phrases: ['address* rejected access denied'],
  },
];
