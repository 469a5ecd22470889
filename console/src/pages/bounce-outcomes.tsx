import type { BounceSummary } from '../api.js';
import { href } from '../router.js';

type Outcomes = BounceSummary['outcomes_by_category'][keyof BounceSummary['outcomes_by_category']];

const number = (value: number) => value.toLocaleString('en-GB');
/** "its address" of one bounce, "their address" of several. */
const address = (count: number) => (count === 1 ? 'its address' : 'their address');

/** What the bounces of a category did when they were recorded, as their outcomes say, not as the settings now would. */
export function OutcomeList({ outcomes }: { outcomes: Outcomes }) {
  const atOnce = outcomes.suppressed;
  const atThreshold = outcomes.suppressed_soft_bounce_threshold;
  const listed = atOnce + atThreshold;
  const how =
    atOnce > 0 && atThreshold > 0
      ? ` (${number(atOnce)} at once, ${number(atThreshold)} on reaching the soft-bounce threshold)`
      : atThreshold > 0
        ? ' on reaching the soft-bounce threshold'
        : '';
  const items = [
    listed > 0 && (
      <li key="listed">
        <strong>
          {number(listed)} put {address(listed)} on the list
        </strong>
        {how}: <a href={href('/?origin=bounce')}>review the bounce entries</a>
      </li>
    ),
    outcomes.already_suppressed > 0 && (
      <li key="already">
        {number(outcomes.already_suppressed)} found {address(outcomes.already_suppressed)} on the list already
      </li>
    ),
    outcomes.not_suppressed > 0 && (
      <li key="off">
        {number(outcomes.not_suppressed)} left {address(outcomes.not_suppressed)} off the list
      </li>
    ),
    outcomes.allowlisted > 0 && (
      <li key="allowlisted">
        {number(outcomes.allowlisted)} left {address(outcomes.allowlisted)} off the list because it is allowlisted
      </li>
    ),
  ].filter(Boolean);
  return (
    <>
      <p id="outcomes-title">What these bounces did when they were recorded:</p>
      <ul class="outcomes" aria-labelledby="outcomes-title">
        {items}
      </ul>
    </>
  );
}
