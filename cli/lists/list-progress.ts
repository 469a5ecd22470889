import { MultiBar, Presets, type SingleBar } from 'cli-progress';

/** Where an import or removal stands. */
export interface ListCounts {
  lines: number;
  jobs: number;
  /** Addresses and ids queued. */
  queued: number;
  /** With --wait: entries the workers are through with, and jobs finished. */
  processed?: number;
  finished?: number;
  /** Bytes of the input read, when its size is known. */
  bytesRead?: number;
}

export interface ListProgress {
  update(counts: ListCounts): void;
  /** Writes a line (ending with a newline) without breaking the bar. */
  log(text: string): void;
  stop(): void;
}

export interface ListProgressOptions {
  stream: NodeJS.WritableStream;
  /** A progress bar on a terminal; progress lines otherwise. */
  tty: boolean;
  /** Whether jobs are waited for (and so their progress shown). */
  waiting: boolean;
  /** Size of the input in bytes, when known (a file). */
  totalBytes?: number;
  /** Progress lines: one every this many jobs queued, and again finished. Default 10. */
  every?: number;
  /** What the list holds, singular and plural, for progress lines. Default entry, entries. */
  noun?: readonly [string, string];
}

const number = (value: number): string => value.toLocaleString('en-US');
const count = (value: number, one: string, many = `${one}s`): string => `${number(value)} ${value === 1 ? one : many}`;

function progressLines(options: ListProgressOptions): ListProgress {
  const every = options.every ?? 10;
  const [one, many] = options.noun ?? ['entry', 'entries'];
  let jobsShown = 0;
  let finishedShown = 0;
  return {
    update(counts) {
      if (counts.jobs >= jobsShown + every) {
        jobsShown = counts.jobs;
        const queued = count(counts.queued, one, many);
        options.stream.write(`queued ${count(counts.jobs, 'job')} (${queued}) from ${count(counts.lines, 'line')}\n`);
      }
      const finished = counts.finished ?? 0;
      if (finished >= finishedShown + every) {
        finishedShown = finished;
        const processed = count(counts.processed ?? 0, one, many);
        options.stream.write(`${number(finished)} of ${count(counts.jobs, 'job')} finished (${processed} processed)\n`);
      }
    },
    log(text) {
      options.stream.write(text);
    },
    stop() {},
  };
}

function progressBar(options: ListProgressOptions): ListProgress {
  const bars = new MultiBar(
    {
      stream: options.stream,
      barsize: 30,
      fps: 10,
      hideCursor: false,
      clearOnComplete: false,
      autopadding: true,
      emptyOnZero: true,
    },
    Presets.shades_classic,
  );
  const known = options.totalBytes !== undefined && options.totalBytes > 0;
  const reading: SingleBar = bars.create(
    known ? (options.totalBytes ?? 1) : 1,
    0,
    { lines: '0', jobs: '0', queued: '0' },
    {
      format: known
        ? 'reading    [{bar}] {percentage}% | {lines} lines | {queued} queued in {jobs} jobs'
        : 'reading    {lines} lines | {queued} queued in {jobs} jobs',
    },
  );
  const processing = options.waiting
    ? bars.create(
        1,
        0,
        { processed: '0', queued: '0', finished: '0', jobs: '0' },
        {
          format: 'processing [{bar}] {percentage}% | {processed} of {queued} | {finished} of {jobs} jobs finished',
        },
      )
    : undefined;
  let stopped = false;
  return {
    update(counts) {
      if (stopped) return;
      reading.update(known ? (counts.bytesRead ?? 0) : 0, {
        lines: number(counts.lines),
        jobs: number(counts.jobs),
        queued: number(counts.queued),
      });
      if (processing) {
        processing.setTotal(Math.max(counts.queued, 1));
        processing.update(counts.processed ?? 0, {
          processed: number(counts.processed ?? 0),
          queued: number(counts.queued),
          finished: number(counts.finished ?? 0),
          jobs: number(counts.jobs),
        });
      }
    },
    log(text) {
      if (stopped) options.stream.write(text);
      // MultiBar clears only the first of the rows its log lines are written over: each line
      // erases the rest of its row itself (ESC [ K), or a bar's tail would stay beside it.
      else bars.log(text.replace(/\n/g, '\u001b[K\n'));
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bars.update();
      bars.stop();
    },
  };
}

/** A progress bar (cli-progress) on a terminal, else a plain line every few jobs. */
export function createListProgress(options: ListProgressOptions): ListProgress {
  return options.tty ? progressBar(options) : progressLines(options);
}
