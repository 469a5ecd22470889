import type { Job, Queue } from 'bullmq';

export interface NotRetried {
  id: string;
  /** The state the job is in instead of failed (waiting, active, completed, ...). */
  state: string;
}

export interface RetryResult {
  retried: string[];
  notFound: string[];
  notFailed: NotRetried[];
}

/**
 * Retries one failed job: null when done, else the state it is in, as BullMQ refuses a job that is
 * gone (`unknown`) or no longer failed (retried or removed by someone else since it was read). A
 * job still failed after a refusal (its data gone, say) is `failed`.
 */
async function retryJob(job: Job): Promise<string | null> {
  try {
    await job.retry('failed');
    return null;
  } catch {
    // A lost connection makes this throw too, and the caller sees that error.
    return job.getState();
  }
}

/**
 * Moves each named failed job back to waiting, so a worker processes it again (its attempts so far
 * are kept). An id that names no job, or a job that is not failed, is reported, not retried.
 */
export async function retryFailedEvents(queue: Queue, ids: readonly string[]): Promise<RetryResult> {
  const result: RetryResult = { retried: [], notFound: [], notFailed: [] };
  for (const id of new Set(ids)) {
    const job = await queue.getJob(id);
    const state = job ? await job.getState() : 'unknown';
    const refused = job && state === 'failed' ? await retryJob(job) : state;
    if (refused === null) result.retried.push(id);
    else if (refused === 'unknown') result.notFound.push(id);
    else result.notFailed.push({ id, state: refused });
  }
  return result;
}

export interface RetryAllResult {
  retried: number;
  /** Failed jobs left when it finished: ones that failed after it began, retried ones that failed again. */
  remaining: number;
}

export interface RetryAllOptions {
  /** Jobs read per page. Default 1000. */
  pageSize?: number;
  /** Called after each page with the number retried so far. */
  onProgress?: (retried: number) => void;
}

/**
 * Retries every job that was failed when it began, a page at a time (constant memory). Pages are
 * read oldest first, and the walk stops at the first job that failed after the newest failure it
 * saw at the start: so a retried job that fails again at once (a worker is running) is not
 * retried a second time, and the walk ends even while new failures keep arriving.
 */
export async function retryAllFailedEvents(queue: Queue, options: RetryAllOptions = {}): Promise<RetryAllResult> {
  const pageSize = options.pageSize ?? 1000;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError('pageSize must be a whole number of at least 1');
  let retried = 0;
  const [newest] = (await queue.getFailed(0, 0)) as (Job | undefined)[];
  const until = newest?.finishedOn ?? 0;
  // A retried job leaves the failed set, so the next page starts where this one did, after the
  // jobs that could not be retried and stay.
  let stuck = 0;
  walk: while (newest) {
    const page = (await queue.getJobs(['failed'], stuck, stuck + pageSize - 1, true)) as (Job | undefined)[];
    if (page.length === 0) break;
    for (const job of page) {
      if (!job) continue;
      if ((job.finishedOn ?? 0) > until) break walk;
      const refused = await retryJob(job);
      if (refused === null) retried += 1;
      else if (refused === 'failed') stuck += 1;
    }
    options.onProgress?.(retried);
  }
  return { retried, remaining: await queue.getFailedCount() };
}
