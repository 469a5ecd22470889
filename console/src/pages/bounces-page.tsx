import { useEffect, useState } from 'preact/hooks';
import { BOUNCES_API, messageOf, request, SETTINGS_API, type BounceSummary, type SuppressionSettings } from '../api.js';
import { ErrorMessage, Loading } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { navigate } from '../router.js';
import { Summary } from './bounce-summary.js';

const PERIODS = {
  '24h': { label: 'Last 24 hours', phrase: 'the last 24 hours', hours: 24 },
  '7d': { label: 'Last 7 days', phrase: 'the last 7 days', hours: 7 * 24 },
  '30d': { label: 'Last 30 days', phrase: 'the last 30 days', hours: 30 * 24 },
} as const;
type Period = keyof typeof PERIODS;
const DEFAULT_PERIOD: Period = '7d';

function periodOf(query: URLSearchParams): Period {
  const value = query.get('period');
  return value !== null && value in PERIODS ? (value as Period) : DEFAULT_PERIOD;
}

interface SummaryState {
  loading: boolean;
  summary: BounceSummary | null;
  /** What each category does now, to say it beside the totals; null when it could not be read. */
  settings: SuppressionSettings | null;
  error: string | null;
}

/** What bounced lately, and why: a bar a day by category, totals, the top reasons and the domains that refused the sender. */
export function BouncesPage({ query }: { query: URLSearchParams }) {
  const period = periodOf(query);
  const [state, setState] = useState<SummaryState>({ loading: true, summary: null, settings: null, error: null });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    const since = new Date(Date.now() - PERIODS[period].hours * 3600_000).toISOString();
    Promise.all([
      request<BounceSummary>('GET', `${BOUNCES_API}/summary?${new URLSearchParams({ since }).toString()}`),
      request<SuppressionSettings>('GET', SETTINGS_API).catch(() => null),
    ]).then(
      ([summary, settings]) => current && setState({ loading: false, summary, settings, error: null }),
      (error: unknown) =>
        current &&
        setState({
          loading: false,
          summary: null,
          settings: null,
          error: `The bounces could not be read: ${messageOf(error)}`,
        }),
    );
    return () => {
      current = false;
    };
  }, [period, reloads]);

  const { summary, settings } = state;
  const phrase = PERIODS[period].phrase;
  return (
    <>
      <PageHeading title="Bounces" />
      <fieldset class="periods">
        <legend>Period</legend>
        {(Object.keys(PERIODS) as Period[]).map((value) => (
          <label key={value} class="period">
            <input
              type="radio"
              name="period"
              value={value}
              checked={value === period}
              onChange={() => navigate(value === DEFAULT_PERIOD ? '/bounces' : `/bounces?period=${value}`)}
            />
            <span>{PERIODS[value].label}</span>
          </label>
        ))}
      </fieldset>

      <ErrorMessage message={state.error} />
      {state.error && (
        <button type="button" class="button" onClick={() => setReloads((count) => count + 1)}>
          Try again
        </button>
      )}

      <div class="bounces" aria-busy={state.loading}>
        {state.loading && <Loading />}
        {!state.loading && summary && summary.total === 0 && (
          <div class="empty">
            <p class="empty-title">No bounces in {phrase}</p>
            <p>Bounces show here as your mail systems report them. Try a longer period.</p>
          </div>
        )}
        {summary && summary.total > 0 && (
          <Summary summary={summary} settings={settings} phrase={phrase} stale={state.loading} />
        )}
      </div>
    </>
  );
}
