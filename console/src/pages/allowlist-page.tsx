import { useEffect, useState } from 'preact/hooks';
import {
  ALLOWLIST_API,
  messageOf,
  request,
  type AllowlistPage,
  type AllowlistRule,
  type AllowlistRuleAdded,
} from '../api.js';
import { ErrorMessage, Loading, StatusMessage } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { formatTime } from '../format.js';
import { href } from '../router.js';

const valueOf = (rule: AllowlistRule): string => rule.email ?? rule.domain ?? '';

/** The list's search for what a rule covers: the address itself, or `@domain`. */
const searchOf = (rule: AllowlistRule): string => (rule.email === null ? `@${rule.domain}` : rule.email);

/**
 * The account's allowlist: addresses and domains that are never suppressed. Adding a rule keeps the
 * entries it covers, and offers to open them in the list, where they can be removed.
 */
export function AllowlistPage() {
  const [rules, setRules] = useState<AllowlistRule[] | null>(null);
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<AllowlistRuleAdded | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    request<AllowlistPage>('GET', `${ALLOWLIST_API}?limit=100`).then(
      (page) => current && setRules(page.data),
      (failure: unknown) => current && setError(`The allowlist could not be read: ${messageOf(failure)}`),
    );
    return () => {
      current = false;
    };
  }, [reloads]);

  async function add(event: Event): Promise<void> {
    event.preventDefault();
    setError(null);
    setAdded(null);
    setStatus(null);
    const given = value.trim();
    if (given === '') {
      setError('Give an address or a domain.');
      return;
    }
    setBusy(true);
    try {
      const body = given.includes('@') ? { email: given } : { domain: given.replace(/^@/, '') };
      const rule = await request<AllowlistRuleAdded>('POST', ALLOWLIST_API, {
        ...body,
        ...(note.trim() && { note: note.trim() }),
      });
      setAdded(rule);
      setValue('');
      setNote('');
      setReloads((count) => count + 1);
    } catch (failure) {
      setError(`Nothing was added: ${messageOf(failure)}`);
    } finally {
      setBusy(false);
    }
  }

  async function remove(rule: AllowlistRule): Promise<void> {
    setError(null);
    setAdded(null);
    try {
      await request('DELETE', `${ALLOWLIST_API}/${rule.id}`);
      setStatus(`${valueOf(rule)} is no longer allowlisted: it may be suppressed again.`);
      setReloads((count) => count + 1);
    } catch (failure) {
      setError(`The rule was not removed: ${messageOf(failure)}`);
    }
  }

  return (
    <>
      <PageHeading title="Allowlist" />
      <p class="lead">
        Addresses and domains that are never suppressed, such as test inboxes and your own staff. A recipient who
        unsubscribes through their link is still honoured.
      </p>
      <form class="search" onSubmit={(event) => void add(event)}>
        <div class="field field-grow">
          <label for="allow-value">Address or domain</label>
          <input
            id="allow-value"
            type="text"
            value={value}
            placeholder="qa@example.com or example.com"
            onInput={(event) => setValue(event.currentTarget.value)}
          />
        </div>
        <div class="field field-grow">
          <label for="allow-note">Note (optional)</label>
          <input id="allow-note" type="text" value={note} onInput={(event) => setNote(event.currentTarget.value)} />
        </div>
        <div class="field field-button">
          <button type="submit" class="button button-primary" disabled={busy}>
            Allowlist
          </button>
        </div>
      </form>

      <ErrorMessage message={error} />
      <StatusMessage message={status} />
      {added && (
        <div class="notice" role="status">
          <p>
            {valueOf(added)} is allowlisted.{' '}
            {added.covered_entries === 0
              ? 'No entry on the list is covered.'
              : `${added.covered_entries} ${added.covered_entries === 1 ? 'entry is' : 'entries are'} on the list already: they stay, and the check no longer reports them.`}
          </p>
          {added.covered_entries > 0 && (
            <p>
              <a class="button" href={href(`/?q=${encodeURIComponent(searchOf(added))}`)}>
                Open {added.covered_entries === 1 ? 'it' : 'them'} in the list to remove
              </a>
            </p>
          )}
        </div>
      )}

      {rules === null && error === null && <Loading />}
      {rules !== null && rules.length === 0 && <p>Nothing is allowlisted.</p>}
      {rules !== null && rules.length > 0 && (
        <table class="table table-stack">
          <thead>
            <tr>
              <th scope="col">Address or domain</th>
              <th scope="col">Note</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr key={rule.id}>
                <td data-label="Address or domain" class="email">
                  {valueOf(rule)}
                </td>
                <td data-label="Note">{rule.note ?? <span class="muted">none</span>}</td>
                <td data-label="Added">{formatTime(rule.created_at)}</td>
                <td>
                  <button
                    type="button"
                    class="button button-small"
                    aria-label={`Remove ${valueOf(rule)} from the allowlist`}
                    onClick={() => void remove(rule)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
