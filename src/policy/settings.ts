import type { Origin } from '../domain/suppression.js';

/**
 * An account's suppression policy, in the API's shape. The defaults keep the list's first rules:
 * only permanent bounces and complaints suppress, and nothing leaves the list on its own.
 */
export interface SuppressionSettings {
  /** Transient or undetermined bounces within the window that suppress an address; null: never. */
  soft_bounce_threshold: number | null;
  soft_bounce_window_days: number;
  /** Days after which an entry of each origin is removed; null: never. */
  expire_after_days: Record<Origin, number | null>;
}

export const DEFAULT_SETTINGS: SuppressionSettings = Object.freeze({
  soft_bounce_threshold: null,
  soft_bounce_window_days: 7,
  expire_after_days: Object.freeze({ bounce: null, complaint: null, manual: null }),
});

export const SOFT_BOUNCE_THRESHOLD = { min: 2, max: 100 } as const;
export const SOFT_BOUNCE_WINDOW_DAYS = { min: 1, max: 365 } as const;
export const EXPIRE_AFTER_DAYS = { min: 1, max: 3650 } as const;

/** A change to the settings: any field left out keeps its value. */
export interface SettingsChange {
  soft_bounce_threshold?: number | null;
  soft_bounce_window_days?: number;
  expire_after_days?: Partial<Record<Origin, number | null>>;
}
