import type { ComponentChildren } from 'preact';
import { BOUNCE_CATEGORIES, type BounceSummary, type SuppressionSettings } from '../api.js';
import { BounceChart, ChartLegend, ChartTable } from '../components/bounce-chart.js';
import {
  ACTION_NAMES,
  CATEGORIES,
  categoryLabel,
  reasonCategory,
  reasonLabel,
  SENDER_BLOCKED_ALERT,
  share,
} from '../bounces.js';
import { formatTime } from '../format.js';
import { href } from '../router.js';
import { OutcomeList } from './bounce-outcomes.js';

/** The reasons the page lists, most frequent first. */
const TOP_REASONS = 10;

const number = (value: number) => value.toLocaleString('en-GB');
const bounces = (count: number) => `${number(count)} ${count === 1 ? 'bounce' : 'bounces'}`;

/** A table named by its card's heading, that scrolls sideways (by keyboard too) when the window is narrower than it. */
function ScrollTable({ labelledBy, children }: { labelledBy: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </div>
  );
}

export function Summary({
  summary,
  settings,
  phrase,
  stale,
}: {
  summary: BounceSummary;
  settings: SuppressionSettings | null;
  phrase: string;
  stale: boolean;
}) {
  const blocked = summary.by_category.sender_blocked ?? 0;
  const reasons = Object.entries(summary.by_reason)
    .filter(([, count]) => count > 0)
    .sort(([a, first], [b, second]) => second - first || a.localeCompare(b))
    .slice(0, TOP_REASONS);
  return (
    <div class={stale ? 'stale' : undefined}>
      <p class="period-total">
        <strong>{bounces(summary.total)}</strong> from {formatTime(summary.since)} to {formatTime(summary.until)}.
      </p>

      {blocked / summary.total > SENDER_BLOCKED_ALERT && (
        <section class="callout" aria-labelledby="callout-title">
          <h2 id="callout-title">
            {share(blocked, summary.total)} of these bounces were refused because of the sender
          </h2>
          <p>
            {bounces(blocked)} of {number(summary.total)} in {phrase} were refused because of a block list, your
            reputation, authentication or content. That is{' '}
            <strong>most likely a problem with your sending, not with these addresses</strong>: check your sending IPs
            and domain against block lists, your SPF, DKIM and DMARC, and what you sent to the domains below.
          </p>
          <OutcomeList outcomes={summary.outcomes_by_category.sender_blocked} />
          {settings && (
            <p>
              Bounces of this kind are set to <strong>{ACTION_NAMES[settings.bounce_actions.sender_blocked]}</strong>{' '}
              now; each bounce was handled by the setting of its day.{' '}
              <a href={href('/settings')}>Change it in Settings</a>.
            </p>
          )}
        </section>
      )}

      <section class="card" aria-labelledby="chart-title">
        <h2 id="chart-title">Bounces a day, by category</h2>
        <ChartLegend />
        <BounceChart
          days={summary.by_day}
          label={`Stacked bar chart of bounces a day by category, ${phrase}. The table below has the same numbers.`}
        />
        <details class="chart-numbers">
          <summary>The numbers by day</summary>
          <ChartTable days={summary.by_day} />
        </details>
      </section>

      <div class="summary-grid">
        <section class="card">
          <h2 id="categories-title">By category</h2>
          <ScrollTable labelledBy="categories-title">
            <table class="table compact">
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col" class="number">
                    Bounces
                  </th>
                  <th scope="col" class="number">
                    Share
                  </th>
                  {settings && <th scope="col">Action now</th>}
                </tr>
              </thead>
              <tbody>
                {BOUNCE_CATEGORIES.map((category) => {
                  const count = summary.by_category[category] ?? 0;
                  return (
                    <tr key={category}>
                      <th scope="row" title={CATEGORIES[category].meaning}>
                        <span class="category-name">
                          <span class={`swatch category-fill-${category}`} aria-hidden="true" />
                          {CATEGORIES[category].label}
                        </span>
                      </th>
                      <td class="number">{number(count)}</td>
                      <td class="number">{share(count, summary.total)}</td>
                      {settings && <td>{ACTION_NAMES[settings.bounce_actions[category]]}</td>}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollTable>
          {settings && (
            <p class="hint table-note">
              The actions are the account’s <a href={href('/settings')}>settings</a> now; a bounce was handled by those
              of its day.
            </p>
          )}
        </section>

        <section class="card">
          <h2 id="reasons-title">Top reasons</h2>
          {reasons.length === 0 ? (
            <p class="muted">No reason was recorded.</p>
          ) : (
            <ScrollTable labelledBy="reasons-title">
              <table class="table compact">
                <thead>
                  <tr>
                    <th scope="col">Reason</th>
                    <th scope="col">Category</th>
                    <th scope="col" class="number">
                      Bounces
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {reasons.map(([reason, count]) => {
                    const category = reasonCategory(reason);
                    return (
                      <tr key={reason}>
                        <th scope="row">{reasonLabel(reason)}</th>
                        <td>{category ? categoryLabel(category) : '—'}</td>
                        <td class="number">{number(count)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollTable>
          )}
        </section>

        <section class="card">
          <h2 id="domains-title">Domains that refused the sender</h2>
          {summary.sender_blocked_domains.length === 0 ? (
            <p class="muted">No bounce was refused because of the sender in {phrase}.</p>
          ) : (
            <ScrollTable labelledBy="domains-title">
              <table class="table compact">
                <thead>
                  <tr>
                    <th scope="col">Recipient domain</th>
                    <th scope="col" class="number">
                      Bounces
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {summary.sender_blocked_domains.map(({ domain, count }) => (
                    <tr key={domain}>
                      <th scope="row" class="email">
                        {domain}
                      </th>
                      <td class="number">{number(count)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
        </section>
      </div>
    </div>
  );
}
