import {
  DEFAULT_BOUNCE_ACTIONS,
  type BounceActions,
  type BounceCategory,
  type BounceAction,
} from '../domain/bounce-categories.js';
import type { GivenOrigin } from '../domain/origins.js';
import type { ComplaintScope } from '../domain/scope.js';

/**
 * An account's suppression policy, in the API's shape. By default only a dead address
 * (`invalid_address`) and a complaint suppress, nothing counts toward a threshold until one is set,
 * and nothing leaves the list on its own.
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

export const DEFAULT_SETTINGS: SuppressionSettings = Object.freeze({
  bounce_actions: DEFAULT_BOUNCE_ACTIONS,
  soft_bounce_threshold: null,
  soft_bounce_window_days: 7,
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
