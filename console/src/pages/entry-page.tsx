import { useEffect, useState } from 'preact/hooks';
import { API, ApiError, messageOf, request, type AuditRecordPage, type Suppression } from '../api.js';
import { ComplaintReason } from '../components/complaint-reason.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ErrorMessage, Loading } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { setFlash } from '../flash.js';
import { formatTime, originName, scopeName } from '../format.js';
import { href, navigate } from '../router.js';
import { HistoryTable } from './history-table.js';

/** The events an entry's page shows; an address with more is rare, and the newest come first. */
const HISTORY_LIMIT = 100;

interface EntryState {
  loading: boolean;
  /** null: not on the list (removed, or never added). */
  entry: Suppression | null;
  history: AuditRecordPage | null;
  error: string | null;
}

async function readEntry(id: string): Promise<Suppression | null> {
  try {
    return await request<Suppression>('GET', `${API}/${encodeURIComponent(id)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

async function readHistory(id: string): Promise<AuditRecordPage | null> {
  try {
    return await request<AuditRecordPage>('GET', `${API}/${encodeURIComponent(id)}/events?limit=${HISTORY_LIMIT}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** One entry: its fields, why it is on the list (its history), and its removal. */
export function EntryPage({ id }: { id: string }) {
  const [state, setState] = useState<EntryState>({ loading: true, entry: null, history: null, error: null });
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [reason, setReason] = useState('');

  useEffect(() => {
    let current = true;
    Promise.all([readEntry(id), readHistory(id)]).then(
      ([entry, history]) => current && setState({ loading: false, entry, history, error: null }),
      (error: unknown) =>
        current &&
        setState({
          loading: false,
          entry: null,
          history: null,
          error: `The entry could not be read: ${messageOf(error)}`,
        }),
    );
    return () => {
      current = false;
    };
  }, [id]);

  async function remove(entry: Suppression): Promise<void> {
    setRemoving(true);
    try {
      // The service refuses to remove a complaint's entry without force and a reason.
      const force = entry.origin === 'complaint' ? `?force=true&reason=${encodeURIComponent(reason.trim())}` : '';
      await request('DELETE', `${API}/${encodeURIComponent(entry.id)}${force}`);
      setFlash(`Removed ${entry.email} from the list.`);
      setConfirming(false);
      navigate('/');
    } catch (error) {
      setConfirming(false);
      setRemoving(false);
      setState((previous) => ({ ...previous, error: `${entry.email} was not removed: ${messageOf(error)}` }));
    }
  }

  const { entry, history } = state;
  const email = entry?.email ?? history?.data[0]?.email;
  return (
    <>
      <p class="back">
        <a href={href('/')}>← Back to the list</a>
      </p>
      <PageHeading title={email ?? 'Entry'} />
      <ErrorMessage message={state.error} />
      {state.loading && (
        <div aria-busy="true">
          <Loading />
        </div>
      )}
      {!state.loading && !state.error && entry === null && history === null && (
        <p class="empty">No entry and no history has this id in your account.</p>
      )}
      {!state.loading && entry === null && history !== null && (
        <p class="notice">This address is not on the suppression list now. Its history is below.</p>
      )}
      {entry && (
        <section class="card" aria-labelledby="fields-title">
          <h2 id="fields-title">Entry</h2>
          <dl class="fields">
            <dt>Email</dt>
            <dd class="email">{entry.email}</dd>
            <dt>Origin</dt>
            <dd>
              <span class={`badge badge-${entry.origin}`}>{originName(entry.origin)}</span>
            </dd>
            <dt>Scope</dt>
            <dd>{scopeName(entry.scope)}</dd>
            <dt>Added</dt>
            <dd>{formatTime(entry.created_at)}</dd>
            <dt>Source email</dt>
            <dd>{entry.source_id ?? <span class="muted">none (added by hand or imported)</span>}</dd>
            <dt>Id</dt>
            <dd class="mono">{entry.id}</dd>
          </dl>
          <button type="button" class="button button-danger" onClick={() => setConfirming(true)}>
            Remove from the list
          </button>
        </section>
      )}
      {history && (
        <section aria-labelledby="history-title">
          <h2 id="history-title">History</h2>
          {history.data.length === 0 ? (
            <p class="empty">
              No bounce, complaint or removal is recorded for this address: it was added by hand or imported.
            </p>
          ) : (
            <HistoryTable records={history.data} />
          )}
          {history.has_more && <p class="hint">Only the newest {HISTORY_LIMIT} events are shown.</p>}
        </section>
      )}
      {confirming && entry && (
        <ConfirmDialog
          title={`Remove ${entry.email}?`}
          confirmLabel="Remove"
          busy={removing}
          incomplete={entry.origin === 'complaint' && reason.trim() === ''}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void remove(entry)}
        >
          <p>The address will leave the suppression list and may be mailed again. Its history is kept.</p>
          {entry.origin === 'complaint' && <ComplaintReason count={1} total={1} value={reason} onInput={setReason} />}
        </ConfirmDialog>
      )}
    </>
  );
}
