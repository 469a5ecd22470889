import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNCE_ACTIONS } from '../../src/domain/bounce-categories.js';
import { completesWindow, crossingIndex, softBounceCategories } from '../../src/policy/soft-bounce-rule.js';
import { isSoftBounce } from '../../src/events/soft-bounces.js';

const DAY = 24 * 60 * 60 * 1000;
const rule = { threshold: 3, windowDays: 7 };

describe('what counts as a soft bounce', () => {
  it('when a bounce’s action is count, then it is soft; bounces that suppress or are recorded, and complaints, are not', () => {
    expect(isSoftBounce({ type: 'bounce', action: 'count' })).toBe(true);
    expect(isSoftBounce({ type: 'bounce', action: 'suppress' })).toBe(false);
    expect(isSoftBounce({ type: 'bounce', action: 'record' })).toBe(false);
    expect(isSoftBounce({ type: 'complaint', action: 'suppress' })).toBe(false);
  });

  it('when an account keeps the default actions, then the soft-bounce categories are the two whose action is count', () => {
    expect(softBounceCategories(DEFAULT_BOUNCE_ACTIONS)).toEqual(['mailbox_unavailable', 'unknown']);
  });

  it('when an account counts a category that suppresses by default and records another, then the soft-bounce categories follow its actions', () => {
    expect(
      softBounceCategories({ ...DEFAULT_BOUNCE_ACTIONS, invalid_address: 'count', mailbox_unavailable: 'record' }),
    ).toEqual(['invalid_address', 'unknown']);
  });
});

describe('the threshold within a window', () => {
  it('when three soft bounces lie exactly seven days from first to last, then the last completes a 3-in-7-days window', () => {
    expect(completesWindow([0, 3 * DAY, 7 * DAY], 7 * DAY, rule)).toBe(true);
  });

  it('when the last is a millisecond past the window, then it completes none', () => {
    expect(completesWindow([0, 3 * DAY, 7 * DAY + 1], 7 * DAY + 1, rule)).toBe(false);
  });

  it('when the bounce that arrives last lies between the others, then the window is found around it', () => {
    expect(completesWindow([6 * DAY, 0, 3 * DAY], 3 * DAY, rule)).toBe(true);
  });

  it('when enough bounces cluster far from the one that arrives, then that one completes no window', () => {
    expect(completesWindow([0, DAY, 2 * DAY, 30 * DAY], 30 * DAY, rule)).toBe(false);
  });
});

describe('which bounce crosses', () => {
  it('when two earlier soft bounces are within the window, then the first arriving one that joins them crosses', () => {
    expect(crossingIndex([0, DAY], [30 * DAY, 2 * DAY, 3 * DAY], rule)).toBe(1);
  });

  it('when none of the arriving ones completes a window, then none crosses', () => {
    expect(crossingIndex([0], [10 * DAY, 20 * DAY], rule)).toBeNull();
  });

  it('when the earlier ones met the rule before it was set, then the next one within their window crosses and a later one does not', () => {
    expect(crossingIndex([0, DAY, 2 * DAY], [3 * DAY], rule)).toBe(0);
    expect(crossingIndex([0, DAY, 2 * DAY], [50 * DAY], rule)).toBeNull();
  });
});
