import type { Job, Queue } from 'bullmq';

/** A job of the events queue that failed for good, as `events failed` shows it. */
export interface FailedEvent {
  id: string;
  name: string;
  attemptsMade: number;
  /** When it last failed (ISO 8601), or null if BullMQ did not record it. */
  failedAt: string | null;
  failedReason: string;
  data: unknown;
}

export interface FailedEventsPage {
  /** Newest first, at most `limit` of them. */
  events: FailedEvent[];
  /** All failed jobs of the queue, shown or not. */
  total: number;
}

export function toFailedEvent(job: Job): FailedEvent {
  return {
    id: job.id ?? '',
    name: job.name,
    attemptsMade: job.attemptsMade,
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    failedReason: job.failedReason ?? '',
    data: job.data,
  };
}

/** The newest `limit` failed jobs of the queue, and how many there are in all. */
export async function listFailedEvents(queue: Queue, limit: number): Promise<FailedEventsPage> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number of at least 1');
  const [jobs, total] = await Promise.all([queue.getFailed(0, limit - 1), queue.getFailedCount()]);
  // A job removed between the two reads comes back as undefined.
  const events = jobs.filter((job): job is Job => job !== undefined).map(toFailedEvent);
  return { events, total: Math.max(total, events.length) };
}

/** One JSON object per line: id, name, attempts_made, failed_at, failed_reason, data. */
export function formatFailedEventsJson(page: FailedEventsPage): string {
  return page.events
    .map((event) =>
      JSON.stringify({
        id: event.id,
        name: event.name,
        attempts_made: event.attemptsMade,
        failed_at: event.failedAt,
        failed_reason: event.failedReason,
        data: event.data,
      }),
    )
    .map((line) => `${line}\n`)
    .join('');
}

const HEADERS = ['JOB ID', 'NAME', 'ATTEMPTS', 'FAILED AT', 'REASON'] as const;

/** Aligned columns, the reason last (on one line) because it may be long. */
export function formatFailedEventsTable(page: FailedEventsPage): string {
  if (page.events.length === 0) return 'No failed events.\n';
  const rows = page.events.map((event) => [
    event.id,
    event.name,
    String(event.attemptsMade),
    event.failedAt ?? '-',
    event.failedReason.replace(/\s+/g, ' ').trim() || '-',
  ]);
  const widths = HEADERS.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const format = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const shown =
    page.total > page.events.length
      ? `${page.events.length} of ${page.total} failed events, newest first (--limit shows more).`
      : `${page.total} failed event${page.total === 1 ? '' : 's'}, newest first.`;
  return [shown, format(HEADERS), ...rows.map(format)].join('\n') + '\n';
}
