import {
  DEFAULT_BOUNCE_ACTIONS,
  type BounceActions,
  type BounceCategory,
  type BounceAction,
} from '../domain/bounce-categories.js';
import type { GivenOrigin } from '../domain/origins.js';
import type { ComplaintScope } from '../domain/scope.js';

/**
 * An account's suppression policy, in the API's shape. By default a dead address
 * (`invalid_address`) and a complaint suppress at once, the third bounce within 30 days that may
 * pass (`mailbox_unavailable`) or that nothing explains (`unknown`) suppresses, and nothing leaves
 * the list on its own.
 */
export interface SuppressionSettings {
  /** What a bounce of each category does. */
  bounce_actions: BounceActions;
  /** Bounces whose action is `count` within the window that suppress an address; null: never. */
  soft_bounce_threshold: number | null;
  soft_bounce_window_days: number;
  /** Days after which an entry of each origin is removed; null: never. */
  expire_after_days: Record<GivenOrigin, number | null>;
  /** Where a complaint about a message of a named scope puts its address: that scope, or the whole account. */
  complaint_scope: ComplaintScope;
}

/**
 * The defaults. The soft-bounce threshold is on, so that a dead address whose bounces nobody can
 * read (the provider's label is never enough to suppress at once) still leaves the list:
 *
 * - 3, not 2: one unexplained bounce never suppresses, and two may still be chance (a mailbox full
 *   for one weekend, an out-of-office reply no rule knows); a third in a row is a pattern.
 * - 30 days: the window must hold three sends of the account's own rhythm, or a dead address is
 *   mailed forever. A weekly newsletter's third bounce comes 14 days after its first (with room for
 *   sends that slip and bounces reported days after their retries), a fortnightly one's 28 days
 *   after. A mailbox full for three weekly sends in a row, over two weeks, is most likely abandoned.
 * - A sender that mails one address several times a day (receipts, alerts) reaches 3 within a day
 *   of a mailbox being full: such an account raises the threshold, or records `mailbox_unavailable`.
 *
 * Migration 0024 gives a settings row made by a later first change the same values; a row whose
 * threshold is null keeps it off, since the account may have turned it off on purpose.
 */
export const DEFAULT_SETTINGS: SuppressionSettings = Object.freeze({
  bounce_actions: DEFAULT_BOUNCE_ACTIONS,
  soft_bounce_threshold: 3,
  soft_bounce_window_days: 30,
  expire_after_days: Object.freeze({ bounce: null, complaint: null, manual: null }),
  complaint_scope: 'message',
});

/** A change to the settings: any field left out keeps its value. */
export interface SettingsChange {
  bounce_actions?: Partial<Record<BounceCategory, BounceAction>>;
  soft_bounce_threshold?: number | null;
  soft_bounce_window_days?: number;
  expire_after_days?: Partial<Record<GivenOrigin, number | null>>;
  complaint_scope?: ComplaintScope;
}
