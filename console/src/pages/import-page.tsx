import { useEffect, useRef, useState } from 'preact/hooks';
import {
  API,
  ApiError,
  GIVEN_ORIGINS as ORIGINS,
  messageOf,
  request,
  type GivenOrigin as Origin,
  type ImportResource,
} from '../api.js';
import { ErrorMessage, StatusMessage } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { addresses, originName } from '../format.js';
import { upload } from '../upload.js';

const POLL_MS = 1000;

const FORMATS: Record<string, { format: string; type: string }> = {
  csv: { format: 'csv', type: 'text/csv' },
  ndjson: { format: 'ndjson', type: 'application/x-ndjson' },
  jsonl: { format: 'ndjson', type: 'application/x-ndjson' },
  txt: { format: 'txt', type: 'text/plain' },
};

/** The file's format from its name; CSV, the API's default, when the name says nothing. */
function formatOf(file: File): { format: string; type: string } {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return FORMATS[extension] ?? { format: 'csv', type: 'text/csv' };
}

type Stage =
  | { name: 'idle' }
  | { name: 'uploading'; sent: number; total: number }
  | { name: 'processing'; import: ImportResource }
  | { name: 'finished'; import: ImportResource };

/**
 * A file of any size: sent with a progress bar while it uploads, then followed once a second until
 * every line has been processed, with the final counts and the lines that were not addresses.
 */
export function ImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [origin, setOrigin] = useState<Origin>('manual');
  const [stage, setStage] = useState<Stage>({ name: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const polling = useRef<number | null>(null);

  useEffect(
    () => () => {
      if (polling.current !== null) window.clearTimeout(polling.current);
    },
    [],
  );

  function follow(id: string): void {
    polling.current = window.setTimeout(() => {
      request<ImportResource>('GET', `${API}/imports/${encodeURIComponent(id)}`).then(
        (found) => {
          if (found.status === 'completed' || found.status === 'failed') setStage({ name: 'finished', import: found });
          else {
            setStage({ name: 'processing', import: found });
            follow(id);
          }
        },
        (failure: unknown) => {
          // A passing failure (a restart, a network blip) is retried; a 4xx will not get better.
          if (failure instanceof ApiError && failure.status >= 400 && failure.status < 500) {
            setError(`The import's progress could not be read: ${messageOf(failure)}`);
            setStage({ name: 'idle' });
          } else follow(id);
        },
      );
    }, POLL_MS);
  }

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    setError(null);
    if (!file) {
      setError('Choose a file to import.');
      return;
    }
    const { format, type } = formatOf(file);
    setStage({ name: 'uploading', sent: 0, total: file.size });
    try {
      const started = await upload<ImportResource>(
        `${API}/imports?${new URLSearchParams({ origin, format }).toString()}`,
        file,
        type,
        (sent, total) => setStage({ name: 'uploading', sent, total }),
      );
      if (started.status === 'completed' || started.status === 'failed')
        setStage({ name: 'finished', import: started });
      else {
        setStage({ name: 'processing', import: started });
        follow(started.id);
      }
    } catch (failure) {
      setStage({ name: 'idle' });
      setError(`The file was not imported: ${messageOf(failure)}`);
    }
  }

  const running = stage.name === 'uploading' || stage.name === 'processing';
  return (
    <>
      <PageHeading title="Import a file" />
      <form class="card" onSubmit={(event) => void submit(event)} noValidate>
        <div class="field">
          <label for="file">File</label>
          <p class="hint" id="file-hint">
            CSV with an <code>email</code> column (or one address a line), NDJSON, or plain text; up to 100 MB.
          </p>
          <input
            id="file"
            type="file"
            accept=".csv,.txt,.ndjson,.jsonl,text/csv,text/plain,application/x-ndjson"
            aria-describedby="file-hint"
            disabled={running}
            onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
          />
        </div>
        <div class="field">
          <label for="import-origin">Origin of the imported entries</label>
          <select
            id="import-origin"
            value={origin}
            disabled={running}
            onChange={(event) => setOrigin(event.currentTarget.value as Origin)}
          >
            {ORIGINS.map((value) => (
              <option key={value} value={value}>
                {originName(value)}
              </option>
            ))}
          </select>
        </div>
        <ErrorMessage message={error} />
        <button type="submit" class="button button-primary" disabled={running}>
          {running ? 'Importing…' : 'Import'}
        </button>
      </form>
      {stage.name !== 'idle' && <Progress stage={stage} />}
    </>
  );
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.min(100, Math.floor((part / whole) * 100));
}

function Progress({ stage }: { stage: Exclude<Stage, { name: 'idle' }> }) {
  const uploaded = stage.name === 'uploading' ? percent(stage.sent, stage.total) : 100;
  const found = stage.name === 'uploading' ? null : stage.import;
  const processed = found ? percent(found.processed, found.queued) : 0;
  return (
    <section class="card" aria-labelledby="progress-title" aria-busy={stage.name !== 'finished'}>
      <h2 id="progress-title">{stage.name === 'finished' ? 'Import finished' : 'Importing…'}</h2>
      <label for="upload-progress">Upload: {uploaded}%</label>
      <progress id="upload-progress" max={100} value={uploaded} />
      <label for="process-progress">
        Processed:{' '}
        {found
          ? `${found.processed.toLocaleString('en-GB')} of ${found.queued.toLocaleString('en-GB')}`
          : 'waiting for the upload'}
      </label>
      <progress id="process-progress" max={100} value={processed} />
      {stage.name === 'finished' && <Outcome found={stage.import} />}
    </section>
  );
}

function Outcome({ found }: { found: ImportResource }) {
  return (
    <>
      {found.status === 'failed' ? (
        <ErrorMessage message={`The import failed: ${found.error ?? 'no reason was given'}.`} />
      ) : (
        <StatusMessage message={`Done: ${addresses(found.added)} added to the list.`} />
      )}
      <dl class="fields counts">
        <dt>Lines read</dt>
        <dd>{found.lines.toLocaleString('en-GB')}</dd>
        <dt>Added</dt>
        <dd>{found.added.toLocaleString('en-GB')}</dd>
        <dt>Already on the list</dt>
        <dd>{found.already_present.toLocaleString('en-GB')}</dd>
        <dt>Duplicates in the file</dt>
        <dd>{found.duplicates.toLocaleString('en-GB')}</dd>
        <dt>Not addresses</dt>
        <dd>{found.invalid.toLocaleString('en-GB')}</dd>
        {found.failed_jobs > 0 && (
          <>
            <dt>Batches that failed</dt>
            <dd>{found.failed_jobs}</dd>
          </>
        )}
      </dl>
      {found.invalid_lines.length > 0 && (
        <>
          <h3>Lines that are not addresses{found.invalid > found.invalid_lines.length ? ' (the first ones)' : ''}</h3>
          <ul class="line-errors">
            {found.invalid_lines.map((line) => (
              <li key={line.line}>
                line {line.line}: {line.value !== undefined ? `"${line.value}" ` : ''}
                {line.reason.endsWith('.') ? line.reason : `${line.reason}.`}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
