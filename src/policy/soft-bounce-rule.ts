import {
  BOUNCE_CATEGORIES,
  type BounceAction,
  type BounceActions,
  type BounceCategory,
} from '../domain/bounce-categories.js';

/** An account's soft-bounce rule: `threshold` soft bounces within `windowDays` suppress an address. */
export interface SoftBounceRule {
  threshold: number;
  windowDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** What makes a bounce soft: its category's action counts it toward the account's threshold. */
export const SOFT_BOUNCE_ACTION = 'count' satisfies BounceAction;

/** The categories whose bounces are soft under an account's bounce actions. */
export function softBounceCategories(actions: Readonly<BounceActions>): BounceCategory[] {
  return BOUNCE_CATEGORIES.filter((category) => actions[category] === SOFT_BOUNCE_ACTION);
}

/**
 * Whether the soft bounce at `time` is one of `threshold` among `times` (which include it) whose
 * earliest and latest are at most `windowDays` apart, boundaries included. Events arrive late and
 * out of order, so the window is found among the times around it, not counted back from now.
 */
export function completesWindow(times: readonly number[], time: number, rule: SoftBounceRule): boolean {
  const span = rule.windowDays * DAY_MS;
  // Every window holding `time` can start at one of the times in [time - span, time].
  return times.some(
    (start) =>
      start >= time - span &&
      start <= time &&
      times.filter((other) => other >= start && other <= start + span).length >= rule.threshold,
  );
}

/**
 * Which of the `arriving` times (in the order they arrived) brings an address to its threshold,
 * given the soft bounces recorded before them: the first that completes a window; null when none does.
 */
export function crossingIndex(
  earlier: readonly number[],
  arriving: readonly number[],
  rule: SoftBounceRule,
): number | null {
  const seen = [...earlier];
  for (const [index, time] of arriving.entries()) {
    seen.push(time);
    if (completesWindow(seen, time, rule)) return index;
  }
  return null;
}

/** The span around a soft bounce at `time` within which others can share a window with it. */
export function windowAround(time: number, rule: SoftBounceRule): { from: Date; to: Date } {
  const span = rule.windowDays * DAY_MS;
  return { from: new Date(time - span), to: new Date(time + span) };
}
