import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { EventProducer } from '../../src/events/event-producer.js';
import { InvalidEventError, parseSuppressionEvent, type SuppressionEvent } from '../../src/events/event-schema.js';

/** A line that was not queued: its number (from 1) and why. */
export interface InvalidLine {
  line: number;
  reason: string;
}

export interface PublishSummary {
  /** Lines read, blank ones included. */
  lines: number;
  /** Events handed to the queue; one already queued under the same job id adds no job. */
  queued: number;
  /** Lines that were not queued (each reported to `onInvalid`). */
  invalid: number;
  /** Blank lines, skipped. */
  blank: number;
}

export interface PublishOptions {
  /** Events per publishMany call, and so the most events held in memory at once. Default 1000. */
  chunkSize?: number;
  /** Called for each invalid line as soon as it is read. */
  onInvalid?: (problem: InvalidLine) => void;
}

/** Queueing stopped part-way (Redis away, say); `summary` says how far it got. */
export class PublishError extends Error {
  override name = 'PublishError';

  constructor(
    readonly summary: PublishSummary,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `queueing stopped after ${summary.queued} events (${summary.lines} lines read): ${reason}. ` +
        'Publishing the file again is safe: an event is one job per account and event id, and the workers record it once.',
      { cause },
    );
  }
}

function parseLine(text: string): SuppressionEvent | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `malformed JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    return parseSuppressionEvent(data);
  } catch (error) {
    if (error instanceof InvalidEventError) return error.message;
    throw error;
  }
}

/**
 * Reads NDJSON (one event per line) from `input` line by line and publishes the valid events in
 * chunks as they stream in, so memory stays constant whatever the size. Blank lines are skipped;
 * a line that is not JSON, or not a valid event, is reported to `onInvalid` and not queued, while
 * the valid lines around it still are.
 */
export async function publishEvents(
  input: Readable,
  producer: Pick<EventProducer, 'publishMany'>,
  options: PublishOptions = {},
): Promise<PublishSummary> {
  const chunkSize = options.chunkSize ?? 1000;
  if (!Number.isInteger(chunkSize) || chunkSize < 1)
    throw new RangeError('chunkSize must be a whole number of at least 1');
  const summary: PublishSummary = { lines: 0, queued: 0, invalid: 0, blank: 0 };
  let chunk: SuppressionEvent[] = [];

  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    const events = chunk;
    chunk = [];
    try {
      await producer.publishMany(events);
    } catch (error) {
      throw new PublishError({ ...summary }, error);
    }
    summary.queued += events.length;
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const raw of lines) {
      summary.lines += 1;
      // A byte-order mark some editors put at the start of a file is not part of the JSON.
      const text = summary.lines === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (text.trim() === '') {
        summary.blank += 1;
        continue;
      }
      const parsed = parseLine(text);
      if (typeof parsed === 'string') {
        summary.invalid += 1;
        options.onInvalid?.({ line: summary.lines, reason: parsed });
        continue;
      }
      chunk.push(parsed);
      if (chunk.length >= chunkSize) await flush();
    }
    await flush();
  } finally {
    lines.close();
  }
  return summary;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The one-line summary `events publish` prints. */
export function describePublishSummary(summary: PublishSummary): string {
  const parts = [`Queued ${plural(summary.queued, 'event')} from ${plural(summary.lines, 'line')}`];
  if (summary.invalid > 0) parts.push(`${plural(summary.invalid, 'invalid line')} not queued`);
  if (summary.blank > 0) parts.push(`${plural(summary.blank, 'blank line')} skipped`);
  return `${parts.join('; ')}.`;
}

/** How `events publish` reports one invalid line. */
export function describeInvalidLine(problem: InvalidLine): string {
  return `line ${problem.line}: ${problem.reason}`;
}
