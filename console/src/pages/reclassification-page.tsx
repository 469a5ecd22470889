import { useEffect, useState } from 'preact/hooks';
import {
  ApiError,
  BOUNCES_API,
  messageOf,
  request,
  type Reclassification,
  type ReclassificationEntryPage,
} from '../api.js';
import { categoryLabel } from '../bounces.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ErrorMessage, Loading } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { ReclassificationEntriesTable } from '../components/reclassification-entries-table.js';
import { addresses, formatTime } from '../format.js';
import { href, navigate } from '../router.js';
import { startReclassification } from './reclassify-page.js';

/** Entries a page of the list shows. */
const PAGE_SIZE = 50;
/** How often a run that has not ended is looked at. */
const FOLLOW_EVERY_MS = 1000;

const STATUSES: Record<Reclassification['status'], string> = {
  queued: 'Waiting for a worker',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
};

const ended = (run: Reclassification | null): boolean => run?.status === 'completed' || run?.status === 'failed';

function byCategory(counts: Reclassification['lifted_by_category']): string {
  const named = Object.entries(counts)
    .filter(([, count]) => (count ?? 0) > 0)
    .sort(([, a], [, b]) => (b ?? 0) - (a ?? 0));
  return named.map(([category, count]) => `${categoryLabel(category)} ${count ?? 0}`).join(', ');
}

interface RunState {
  run: Reclassification | null;
  /** The run is none of the account's. */
  missing: boolean;
  error: string | null;
}

/** The run of this id, looked at again every second until it has ended. */
function useFollowedRun(id: string): RunState {
  const [state, setState] = useState<RunState>({ run: null, missing: false, error: null });
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async (): Promise<void> => {
      try {
        const run = await request<Reclassification>(
          'GET',
          `${BOUNCES_API}/reclassifications/${encodeURIComponent(id)}`,
        );
        if (!current) return;
        setState({ run, missing: false, error: null });
        if (!ended(run)) timer = setTimeout(() => void look(), FOLLOW_EVERY_MS);
      } catch (error) {
        if (!current) return;
        if (error instanceof ApiError && (error.status === 404 || error.status === 422)) {
          setState({ run: null, missing: true, error: null });
        } else {
          setState((previous) => ({ ...previous, error: `The run could not be read: ${messageOf(error)}` }));
        }
      }
    };
    void look();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id]);
  return state;
}

/**
 * One reclassification: how far it has got, what it lifts (in a dry run, would lift), the list of
 * those entries a page at a time, and, once a dry run has ended, the real run of it.
 */
export function ReclassificationPage({ id, query }: { id: string; query: URLSearchParams }) {
  const after = query.get('after') ?? '';
  const before = query.get('before') ?? '';
  const { run, missing, error } = useFollowedRun(id);
  const [page, setPage] = useState<ReclassificationEntryPage | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [applying, setApplying] = useState(false);
  // The list grows while the run goes: read again whenever the run has lifted more, and once it ends.
  const listed = run === null ? null : `${run.lifted}:${run.status}`;

  useEffect(() => {
    if (listed === null) return;
    let current = true;
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (after) params.set('after', after);
    if (before) params.set('before', before);
    request<ReclassificationEntryPage>(
      'GET',
      `${BOUNCES_API}/reclassifications/${encodeURIComponent(id)}/entries?${params.toString()}`,
    ).then(
      (next) => {
        if (!current) return;
        setPage(next);
        setPageError(null);
      },
      (failure: unknown) => current && setPageError(`The entries could not be read: ${messageOf(failure)}`),
    );
    return () => {
      current = false;
    };
  }, [id, after, before, listed]);

  async function apply(): Promise<void> {
    setApplying(true);
    try {
      const real = await startReclassification(false);
      setConfirming(false);
      setApplying(false);
      navigate(`/reclassify/${real.id}`);
    } catch (failure) {
      setConfirming(false);
      setApplying(false);
      setPageError(`Nothing was lifted: ${messageOf(failure)}`);
    }
  }

  const entries = page?.data ?? [];
  const hasOlder = before ? true : (page?.has_more ?? false);
  const hasNewer = after ? true : before ? (page?.has_more ?? false) : false;
  const verb = run?.dry_run ? 'would lift' : 'lifted';
  const go = (cursor: { after?: string; before?: string }) => {
    const search = new URLSearchParams(cursor).toString();
    navigate(`/reclassify/${id}${search ? `?${search}` : ''}`);
  };

  return (
    <>
      <p class="back">
        <a href={href('/reclassify')}>← Reclassify bounces</a>
      </p>
      <PageHeading title={run?.dry_run === false ? 'Reclassification' : 'Dry run of a reclassification'} />
      <ErrorMessage message={error} />
      {run === null && !missing && !error && <Loading />}
      {missing && <p class="empty">No reclassification has this id in your account.</p>}
      {run && (
        <section class="card" aria-labelledby="run-title" aria-busy={!ended(run)}>
          <h2 id="run-title">{STATUSES[run.status]}</h2>
          <dl class="fields">
            <dt>Kind</dt>
            <dd>{run.dry_run ? 'Dry run: nothing is lifted' : 'Real run: the entries below were lifted'}</dd>
            <dt>Examined</dt>
            <dd>
              {run.entries_examined.toLocaleString('en-GB')} of {(run.entries_total ?? 0).toLocaleString('en-GB')}{' '}
              bounce entries ({run.entries_without_evidence.toLocaleString('en-GB')} with no record, kept)
            </dd>
            <dt>{run.dry_run ? 'Would lift' : 'Lifted'}</dt>
            <dd>
              {addresses(run.lifted)}
              {run.lifted > 0 && <span class="muted"> ({byCategory(run.lifted_by_category)})</span>}
            </dd>
            <dt>Classifier</dt>
            <dd class="mono">{run.classifier_version}</dd>
            <dt>Started</dt>
            <dd>{formatTime(run.started_at)}</dd>
            <dt>Ended</dt>
            <dd>{formatTime(run.finished_at)}</dd>
          </dl>
          {run.error && <p class="message message-error">{run.error}</p>}
          {run.dry_run && run.status === 'completed' && run.lifted > 0 && (
            <button type="button" class="button button-danger" onClick={() => setConfirming(true)}>
              Lift these {addresses(run.lifted)}
            </button>
          )}
          {run.status === 'completed' && run.lifted === 0 && (
            <p class="notice">Every bounce entry is supported by its evidence: there is nothing to lift.</p>
          )}
        </section>
      )}

      <ErrorMessage message={pageError} />
      {run && entries.length > 0 && (
        <section aria-labelledby="entries-title">
          <h2 id="entries-title">Entries it {verb}</h2>
          <ReclassificationEntriesTable entries={entries} caption={`Entries it ${verb}, newest first`} />
          <nav class="pager" aria-label="Pages">
            <button
              type="button"
              class="button"
              disabled={!hasNewer}
              onClick={() => go({ before: entries[0]?.id ?? after })}
            >
              ← Previous
            </button>
            <button
              type="button"
              class="button"
              disabled={!hasOlder}
              onClick={() => go({ after: entries.at(-1)?.id ?? '' })}
            >
              Next →
            </button>
          </nav>
        </section>
      )}

      {confirming && run && (
        <ConfirmDialog
          title={`Lift ${addresses(run.lifted)}?`}
          confirmLabel="Lift them"
          busy={applying}
          onConfirm={() => void apply()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            A real run judges every bounce entry again, with the evidence recorded by then, and lifts those still
            unsupported: these, unless a bounce or complaint arrived for one of them since. Each lift is recorded in the
            address’s history and announced to your webhooks; the addresses may be mailed again.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
