import { useEffect, useState } from 'preact/hooks';
import { API, ApiError, messageOf, request, type AuditRecordPage } from '../api.js';
import { ErrorMessage } from '../components/messages.js';
import { href } from '../router.js';
import { HistoryTable } from './history-table.js';

/** The newest records a search shows; the address's own page has the rest. */
export const SEARCH_HISTORY_LIMIT = 5;

export interface AddressHistory {
  loading: boolean;
  /** null: the service has recorded nothing of the address (or no address was searched). */
  history: AuditRecordPage | null;
  error: string | null;
}

/**
 * The history of the address a search names, whether or not it is on the list: every bounce with
 * what it did, every removal or lift. Asked for beside the list, so that "why was it not
 * suppressed?" is answered by the same search.
 */
export function useAddressHistory(email: string | null): AddressHistory {
  // Each answer remembers the address it is for: on the render where the search changes, before
  // the effect below asks, the state still holds the last address's answer and counts as loading.
  const [state, setState] = useState<AddressHistory & { email: string | null }>({
    email: null,
    loading: false,
    history: null,
    error: null,
  });
  useEffect(() => {
    if (email === null) {
      setState({ email, loading: false, history: null, error: null });
      return;
    }
    let current = true;
    setState({ email, loading: true, history: null, error: null });
    request<AuditRecordPage>('GET', `${API}/${encodeURIComponent(email)}/events?limit=${SEARCH_HISTORY_LIMIT}`).then(
      (history) => current && setState({ email, loading: false, history, error: null }),
      (error: unknown) => {
        if (!current) return;
        // 404: neither an entry nor a record names the address.
        if (error instanceof ApiError && error.status === 404)
          setState({ email, loading: false, history: null, error: null });
        else
          setState({
            email,
            loading: false,
            history: null,
            error: `Its history could not be read: ${messageOf(error)}`,
          });
      },
    );
    return () => {
      current = false;
    };
  }, [email]);
  if (state.email !== email) return { loading: email !== null, history: null, error: null };
  return state;
}

/** The searched address's newest records, whether it is on the list, and the way to all of them. */
export function SearchHistory({ email, state, onList }: { email: string; state: AddressHistory; onList: boolean }) {
  if (state.error) return <ErrorMessage message={state.error} />;
  const history = state.history;
  if (history === null) return null;
  return (
    <section class="card search-history" aria-labelledby="search-history-title">
      <h2 id="search-history-title">History of {email}</h2>
      {history.data.length === 0 ? (
        <p class="muted">Nothing is recorded for it but its entry: it was added by hand or imported.</p>
      ) : (
        <>
          <p>
            {onList ? (
              'Its entries are above. '
            ) : (
              <>
                <strong>It is not on the suppression list.</strong>{' '}
              </>
            )}
            What the service recorded for it, newest first, and what each record did:
          </p>
          <HistoryTable records={history.data} />
        </>
      )}
      <p class="search-history-more">
        <a href={href(`/entries/${encodeURIComponent(email)}`)}>Open the address’s page</a>
        {history.has_more && ' for its older records'}.
      </p>
    </section>
  );
}
