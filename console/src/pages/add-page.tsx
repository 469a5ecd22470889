import { useState } from 'preact/hooks';
import { API, messageOf, request, type SuppressionCheck } from '../api.js';
import { ErrorMessage, StatusMessage } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { addresses } from '../format.js';
import { href } from '../router.js';

export const MAX_LINES = 100;

interface Line {
  number: number;
  value: string;
}

interface LineError extends Line {
  reason: string;
}

/** The non-blank lines, numbered as the text area shows them. */
function linesOf(text: string): Line[] {
  return text
    .split(/\r?\n/)
    .map((value, index) => ({ number: index + 1, value: value.trim() }))
    .filter((line) => line.value !== '');
}

/**
 * Up to 100 addresses, one a line. The send-time check names every line that is not an address;
 * the others are added in one request, and the bad lines are left in the box to be corrected.
 */
export function AddPage() {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [lineErrors, setLineErrors] = useState<LineError[]>([]);

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    setError(null);
    setAdded(null);
    setLineErrors([]);
    const lines = linesOf(text);
    if (lines.length === 0) {
      setError('Paste at least one address, one a line.');
      return;
    }
    if (lines.length > MAX_LINES) {
      setError(`Paste at most ${MAX_LINES} addresses at once; there are ${lines.length}. Import a file for more.`);
      return;
    }
    setBusy(true);
    try {
      const check = await request<SuppressionCheck>('POST', `${API}/check`, {
        emails: lines.map((line) => line.value),
      });
      const invalid = new Map(check.invalid.map((item) => [item.index, item.reason]));
      const bad = lines.flatMap((line, index) => {
        const reason = invalid.get(index);
        return reason === undefined ? [] : [{ ...line, reason }];
      });
      const good = lines.filter((_line, index) => !invalid.has(index));
      if (good.length > 0) {
        const answer = await request<{ data: unknown[] }>('POST', `${API}/batch/add`, {
          emails: good.map((line) => line.value),
        });
        setAdded(`Added ${addresses(answer.data.length)}.`);
      }
      setLineErrors(bad);
      setText(bad.map((line) => line.value).join('\n'));
    } catch (failure) {
      setError(`Nothing was added: ${messageOf(failure)}`);
    } finally {
      setBusy(false);
    }
  }

  const count = linesOf(text).length;
  return (
    <>
      <PageHeading title="Add addresses" />
      <form class="card" onSubmit={(event) => void submit(event)} aria-busy={busy} noValidate>
        <label for="emails">Addresses, one a line</label>
        <p class="hint" id="emails-hint">
          Up to {MAX_LINES} at once; for more, <a href={href('/import')}>import a file</a>. They are added with origin
          manual; an address already on the list keeps its entry.
        </p>
        <textarea
          id="emails"
          rows={10}
          spellcheck={false}
          aria-describedby="emails-hint emails-count"
          aria-invalid={lineErrors.length > 0 ? true : undefined}
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <p class={count > MAX_LINES ? 'hint hint-error' : 'hint'} id="emails-count">
          {count} of {MAX_LINES} lines
        </p>
        <StatusMessage message={added} />
        <ErrorMessage message={error} />
        <div role="alert" class={lineErrors.length > 0 ? 'message message-error' : 'message-empty'}>
          {lineErrors.length > 0 && (
            <>
              <p>
                {lineErrors.length === 1
                  ? 'One line was not added; it is left in the box to correct:'
                  : `${lineErrors.length} lines were not added; they are left in the box to correct:`}
              </p>
              <ul class="line-errors">
                {lineErrors.map((line) => (
                  <li key={line.number}>
                    line {line.number}: "{line.value}" {line.reason}.
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
        <button type="submit" class="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add'}
        </button>
      </form>
    </>
  );
}
