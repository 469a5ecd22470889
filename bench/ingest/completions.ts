import { performance } from 'node:perf_hooks';
import type { Job, Worker } from 'bullmq';

export interface CompletionTiming {
  /** From just before the worker was created until the last expected job completed. */
  elapsedMs: number;
  jobsPerSecond: number;
  completed: number;
  /** Failed attempts that BullMQ will retry (a slow or busy database shows up here). */
  retriedAttempts: number;
  /**
   * CPU time of this process (all threads: main, GC, libuv) per completed job, in microseconds, and
   * the share of the window the event loop was busy: together they tell whether the worker process
   * itself is the bottleneck (busy near 1) or it waits on Redis or PostgreSQL.
   */
  processCpuUsPerJob: number;
  eventLoopBusy: number;
}

export interface TimedWorker {
  worker: Worker;
  finished: Promise<CompletionTiming>;
}

function isFinalFailure(job: Job, error: Error): boolean {
  return error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
}

/**
 * Starts a worker (through `start`, which must create it and return it synchronously) and times
 * it until `expected` jobs have completed. The clock starts before `start`, so connecting and
 * the first fetch count, as they do for a real worker. A job that fails for good ends the run
 * with its reason: a benchmark on valid data that loses an event is broken, not slow.
 */
export function timeUntilCompleted(
  label: string,
  start: () => Worker,
  expected: number,
  signal: AbortSignal,
): TimedWorker {
  let completed = 0;
  let retriedAttempts = 0;
  const startedAt = performance.now();
  const cpuAtStart = process.cpuUsage();
  const loopAtStart = performance.eventLoopUtilization();
  const worker = start();

  const finished = new Promise<CompletionTiming>((resolve, reject) => {
    const stop = (error: unknown): void => {
      signal.removeEventListener('abort', onAbort);
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onAbort = (): void => {
      const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
      stop(new Error(`${reason} (${label}: ${completed} of ${expected} jobs completed)`));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });

    worker.on('completed', () => {
      completed += 1;
      if (completed !== expected) return;
      const elapsedMs = performance.now() - startedAt;
      const cpu = process.cpuUsage(cpuAtStart);
      const loop = performance.eventLoopUtilization(loopAtStart);
      signal.removeEventListener('abort', onAbort);
      resolve({
        elapsedMs,
        jobsPerSecond: (expected * 1000) / elapsedMs,
        completed,
        retriedAttempts,
        processCpuUsPerJob: (cpu.user + cpu.system) / expected,
        eventLoopBusy: loop.utilization,
      });
    });
    worker.on('failed', (job, error) => {
      if (job === undefined) return;
      if (isFinalFailure(job, error))
        stop(new Error(`${label}: job ${job.id ?? '?'} failed for good: ${error.message}`));
      else retriedAttempts += 1;
    });
  });
  return { worker, finished };
}
