import { useEffect, useState } from 'preact/hooks';
import { API, messageOf, ORIGINS, request } from '../api.js';
import { ComplaintReason } from '../components/complaint-reason.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { EntriesTable } from '../components/entries-table.js';
import { ErrorMessage, Loading, StatusMessage } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { takeFlash } from '../flash.js';
import { addresses, originName } from '../format.js';
import { href, navigate } from '../router.js';
import { searchedAddress } from '../search.js';
import { useListQuery, type ListParams } from './list-query.js';
import { SearchHistory, useAddressHistory } from './search-history.js';

function listPath(params: ListParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `/?${text}` : '/';
}

function exportHref(origin: string, scope: string, spreadsheetSafe: boolean): string {
  const query = new URLSearchParams({ format: 'csv' });
  if (origin) query.set('origin', origin);
  if (scope) query.set('scope', scope);
  if (spreadsheetSafe) query.set('escape_formulas', 'true');
  return `${API}/export?${query.toString()}`;
}

/** The list, newest first, 50 a page, with the search, the origin and scope filters, selection and removal. */
export function ListPage({ query }: { query: URLSearchParams }) {
  const q = query.get('q') ?? '';
  const origin = query.get('origin') ?? '';
  const scope = query.get('scope') ?? '';
  const after = query.get('after') ?? '';
  const before = query.get('before') ?? '';
  const [search, setSearch] = useState(q);
  const [scopeInput, setScopeInput] = useState(scope);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<string | null>(() => takeFlash());
  const [reloads, setReloads] = useState(0);
  const { list, failed } = useListQuery({ q, origin, scope, after, before }, reloads, () => setSelected(new Set()));
  const [spreadsheetSafe, setSpreadsheetSafe] = useState(false);
  // The history of a searched address, on the list or not: asked for with the first page only.
  const address = after || before ? null : searchedAddress(q);
  const addressHistory = useAddressHistory(address);

  useEffect(() => setSearch(q), [q]);
  useEffect(() => setScopeInput(scope), [scope]);

  function go(params: ListParams): void {
    setStatus(null);
    navigate(listPath(params));
  }

  async function removeSelected(): Promise<void> {
    setRemoving(true);
    try {
      // The service refuses to remove complaints' entries without force and a reason.
      const force = complaintsSelected > 0 ? { force: true, reason: reason.trim() } : {};
      const removed = await request<{ data: unknown[] }>('POST', `${API}/batch/remove`, {
        ids: [...selected],
        ...force,
      });
      setStatus(`Removed ${addresses(removed.data.length)} from the list.`);
      setConfirming(false);
      setReloads((count) => count + 1);
    } catch (error) {
      setConfirming(false);
      failed(`Nothing was removed: ${messageOf(error)}`);
    } finally {
      setRemoving(false);
    }
  }

  const entries = list.page?.data ?? [];
  const complaintsSelected = entries.filter((entry) => selected.has(entry.id) && entry.origin === 'complaint').length;
  const filtered = q !== '' || origin !== '' || scope !== '';
  // Keyset pages: `after` walks to older entries, `before` to newer ones; `has_more` speaks of the
  // direction of travel, and the way back is always open once a cursor was followed.
  const hasOlder = before ? true : (list.page?.has_more ?? false);
  const hasNewer = after ? true : before ? (list.page?.has_more ?? false) : false;
  const allSelected = entries.length > 0 && entries.every((entry) => selected.has(entry.id));

  function toggle(id: string): void {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  }

  return (
    <>
      <PageHeading title="Suppressed addresses" />
      <form
        class="search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          go({ q: search.trim(), origin, scope: scopeInput.trim().toLowerCase() });
        }}
      >
        <div class="field field-grow">
          <label for="search">Search</label>
          <input
            id="search"
            type="search"
            value={search}
            aria-describedby="search-hint"
            placeholder="jane@example.com, jane*, @example.com"
            onInput={(event) => setSearch(event.currentTarget.value)}
          />
          <p class="hint" id="search-hint">
            An address, the start of one ending in <code>*</code>, or a domain.
          </p>
        </div>
        <div class="field">
          <label for="origin">Origin</label>
          <select id="origin" value={origin} onChange={(event) => go({ q, origin: event.currentTarget.value, scope })}>
            <option value="">All origins</option>
            {ORIGINS.map((value) => (
              <option key={value} value={value}>
                {originName(value)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="scope">Scope</label>
          <input
            id="scope"
            type="text"
            value={scopeInput}
            placeholder="all scopes"
            onInput={(event) => setScopeInput(event.currentTarget.value)}
          />
        </div>
        <div class="field field-button">
          <button type="submit" class="button button-primary">
            Search
          </button>
        </div>
      </form>

      <StatusMessage message={status} />
      <ErrorMessage message={list.error} />

      <div class="toolbar">
        <button
          type="button"
          class="button button-danger"
          disabled={selected.size === 0}
          onClick={() => setConfirming(true)}
        >
          Remove selected{selected.size > 0 ? ` (${selected.size})` : ''}
        </button>
        <a class="button" href={exportHref(origin, scope, spreadsheetSafe)} download>
          Export {origin ? `${originName(origin).toLowerCase()} entries` : 'all'}
          {scope ? ` of ${scope}` : ''} as CSV
        </a>
        <label
          class="check"
          title="Cells that begin with =, +, - or @ get a ' in front, so a spreadsheet shows them as text"
        >
          <input
            type="checkbox"
            checked={spreadsheetSafe}
            onChange={(event) => setSpreadsheetSafe(event.currentTarget.checked)}
          />
          Safe for spreadsheets
        </label>
        {filtered && (
          <a class="clear" href={href('/')}>
            Clear search and filter
          </a>
        )}
      </div>

      <div class="list" aria-busy={list.loading || addressHistory.loading}>
        {list.loading && <Loading />}
        {!list.loading && list.page && entries.length === 0 && !addressHistory.loading && !addressHistory.history && (
          <div class="empty">
            {filtered || after || before ? (
              <>
                <p class="empty-title">Nothing matches</p>
                <p>
                  {address
                    ? 'The service has no entry and no record of this address: no bounce, complaint or removal.'
                    : 'No entry matches this search and filter. Check the address or domain, or clear the search.'}
                </p>
                {!address && <p>Search a whole address to see its history too, even when it is not on the list.</p>}
              </>
            ) : (
              <>
                <p class="empty-title">No suppressed addresses yet</p>
                <p>
                  Bounces and complaints add addresses here as they happen. You can also{' '}
                  <a href={href('/add')}>add addresses</a> or <a href={href('/import')}>import a file</a>.
                </p>
              </>
            )}
          </div>
        )}
        {entries.length > 0 && (
          <EntriesTable
            entries={entries}
            selected={selected}
            onToggle={toggle}
            onToggleAll={() => setSelected(allSelected ? new Set() : new Set(entries.map((entry) => entry.id)))}
          />
        )}
        {address && !list.loading && (
          <SearchHistory email={address} state={addressHistory} onList={entries.length > 0} />
        )}
      </div>

      <nav class="pager" aria-label="Pages">
        <button
          type="button"
          class="button"
          disabled={!hasNewer || list.loading}
          onClick={() => go({ q, origin, scope, before: entries[0]?.id ?? after })}
        >
          ← Previous
        </button>
        <button
          type="button"
          class="button"
          disabled={!hasOlder || list.loading || entries.length === 0}
          onClick={() => go({ q, origin, scope, after: entries.at(-1)?.id })}
        >
          Next →
        </button>
      </nav>

      {confirming && (
        <ConfirmDialog
          title={`Remove ${addresses(selected.size)}?`}
          confirmLabel="Remove"
          busy={removing}
          incomplete={complaintsSelected > 0 && reason.trim() === ''}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void removeSelected()}
        >
          <p>
            {addresses(selected.size)} will leave the suppression list and may be mailed again. Their history is kept.
          </p>
          {complaintsSelected > 0 && (
            <ComplaintReason count={complaintsSelected} total={selected.size} value={reason} onInput={setReason} />
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
