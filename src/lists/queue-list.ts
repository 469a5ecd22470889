import type { BatchProducer } from '../batches/batch-producer.js';
import { emailProblem, normalizeEmail } from '../domain/email.js';
import { isUuid } from '../domain/ids.js';
import type { Scope } from '../domain/scope.js';
import type { GivenOrigin as Origin } from '../domain/origins.js';
import { MAX_BATCH_JOB_ENTRIES } from '../queues.js';
import type { ListEntry, ReadSummary } from './list-entry.js';

/** What to do with a list: add its addresses to an account's list, or take them (or ids) off. */
export type ListOperation =
  | { kind: 'add'; accountId: string; origin: Origin; scope?: Scope | undefined }
  /**
   * `force` (with a `reason`) removes entries a complaint put on the list too; the reason is kept in
   * their history. `scope` selects the addresses' entries of that scope (ids name theirs).
   */
  | {
      kind: 'remove';
      accountId: string;
      force?: boolean | undefined;
      reason?: string | undefined;
      scope?: Scope | undefined;
    };

/** A line that was not queued: its number (from 1), the value on it if any, and why. */
export interface InvalidLine {
  line: number;
  value?: string;
  reason: string;
}

export interface QueuedJob {
  id: string;
  /** Addresses or ids in it. */
  entries: number;
}

export interface QueueSummary {
  /** Lines read so far, blank ones and a header included. */
  lines: number;
  /** Lines with no valid address (or, for removal, id), each reported to `onInvalid`. */
  invalid: number;
  /** Addresses and ids sent in jobs. */
  queued: number;
  /** Lines repeating an address (or id) already in the same job: sent once. */
  duplicates: number;
  jobs: number;
}

export interface QueueListOptions {
  /** Entries per job, and so the most held in memory at once (twice that for removal). Default 10,000. */
  chunkSize?: number;
  /** Called for each invalid line as it is read. */
  onInvalid?: (problem: InvalidLine) => void;
  /** Called once each job is queued. */
  onJob?: (job: QueuedJob) => void;
  /** Called every thousand lines or so, and after each job. */
  onProgress?: (summary: Readonly<QueueSummary>) => void;
}

/** Queueing stopped part-way (Redis away, say); `summary` says how far it got. */
export class QueueListError extends Error {
  override name = 'QueueListError';

  constructor(
    readonly summary: QueueSummary,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const jobs = `${summary.jobs} job${summary.jobs === 1 ? '' : 's'}`;
    super(
      `queueing stopped after ${summary.queued} entries in ${jobs} (${summary.lines} lines read): ${reason}. ` +
        'Running the command again is safe: an address already added is left as it is, and one already removed counts as not found.',
      { cause },
    );
  }
}

type Kind = 'emails' | 'ids';

/** The key a line's value is sent as, or why it cannot be. */
function classify(
  entry: { value: string; field?: 'id' },
  removing: boolean,
): { kind: Kind; key: string } | { reason: string } {
  const trimmed = entry.value.trim();
  if (entry.field === 'id' || (removing && isUuid(trimmed))) {
    return isUuid(trimmed)
      ? { kind: 'ids', key: trimmed.toLowerCase() }
      : { reason: 'is not a suppression id (a UUID)' };
  }
  const email = normalizeEmail(entry.value);
  const reason = emailProblem(email);
  return reason === null ? { kind: 'emails', key: email } : { reason };
}

const PROGRESS_EVERY_LINES = 1000;

/**
 * Validates the entries of a list as they stream in and queues the valid ones in jobs of at most
 * `chunkSize`, awaiting each so reading waits for Redis and memory stays constant. Addresses are
 * normalised; an address (or id) met again before its job is sent is sent once. An invalid line
 * is reported and skipped; the lines around it are still queued. For removal, a UUID is an id
 * and anything else an address: ids and addresses go in separate jobs.
 */
export async function queueList(
  entries: AsyncGenerator<ListEntry, ReadSummary, undefined>,
  producer: Pick<BatchProducer, 'add' | 'remove'>,
  operation: ListOperation,
  options: QueueListOptions = {},
): Promise<QueueSummary> {
  const chunkSize = options.chunkSize ?? MAX_BATCH_JOB_ENTRIES;
  if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_BATCH_JOB_ENTRIES) {
    throw new RangeError(`chunkSize must be a whole number from 1 to ${MAX_BATCH_JOB_ENTRIES}`);
  }
  const summary: QueueSummary = { lines: 0, invalid: 0, queued: 0, duplicates: 0, jobs: 0 };
  const chunks: Record<Kind, Set<string>> = { emails: new Set(), ids: new Set() };
  const removing = operation.kind === 'remove';

  const send = (kind: Kind, keys: string[]): Promise<string> =>
    operation.kind === 'add'
      ? producer.add({
          account_id: operation.accountId,
          emails: keys,
          origin: operation.origin,
          source_id: null,
          ...(operation.scope != null && { scope: operation.scope }),
        })
      : producer.remove({
          account_id: operation.accountId,
          [kind]: keys,
          ...(kind === 'emails' && operation.scope != null && { scope: operation.scope }),
          ...(operation.force === true && { force: true }),
          ...(operation.reason !== undefined && { reason: operation.reason }),
        });

  const flush = async (kind: Kind): Promise<void> => {
    const chunk = chunks[kind];
    if (chunk.size === 0) return;
    const keys = [...chunk];
    chunk.clear();
    let id: string;
    try {
      id = await send(kind, keys);
    } catch (error) {
      throw new QueueListError({ ...summary }, error);
    }
    summary.queued += keys.length;
    summary.jobs += 1;
    options.onJob?.({ id, entries: keys.length });
    options.onProgress?.(summary);
  };

  let read: IteratorResult<ListEntry, ReadSummary> | undefined;
  let entriesRead = 0;
  try {
    while (!(read = await entries.next()).done) {
      const entry = read.value;
      summary.lines = entry.line;
      const sent = 'problem' in entry ? { reason: entry.problem } : classify(entry, removing);
      if ('reason' in sent) {
        summary.invalid += 1;
        options.onInvalid?.({
          line: entry.line,
          ...('value' in entry ? { value: entry.value } : {}),
          reason: sent.reason,
        });
      } else {
        const chunk = chunks[sent.kind];
        if (chunk.has(sent.key)) summary.duplicates += 1;
        else chunk.add(sent.key);
        if (chunk.size >= chunkSize) await flush(sent.kind);
      }
      entriesRead += 1;
      if (entriesRead % PROGRESS_EVERY_LINES === 0) options.onProgress?.(summary);
    }
  } finally {
    // Stopped early (Redis away): the reader lets go of its input.
    if (!read?.done) await entries.return({ lines: summary.lines });
  }
  summary.lines = read.value.lines;
  await flush('emails');
  await flush('ids');
  return summary;
}
