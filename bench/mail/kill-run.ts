import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import type { Database } from '../../src/db/database.js';
import { EVENTS_QUEUE, MAIL_QUEUE } from '../../src/queues.js';
import type { RedisClient } from '../../src/redis.js';
import type { CleanupStack } from '../common/cleanup.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { notApplied, progress, reached, secondsUntil } from './progress.js';
import { benchMessages, sendOverSmtp, type Sent } from './smtp-lanes.js';
import { startWorkerProcess } from './worker-process.js';

export interface KillRunSetting {
  db: Database;
  deadline: Deadline;
  cleanup: CleanupStack;
  /** The listener, in this process, that the messages are sent to. */
  port: number;
  connection: RedisClient;
  prefix: string;
  /** The worker program's environment: its database, Redis, queue prefix and mail settings. */
  workerEnv: Record<string, string>;
  /** Messages applied before this run, in the same database. */
  before: number;
  messages: number;
  clients: number;
}

export interface KillRunResult {
  sent: Sent;
  acceptedS: number;
  /** Seconds from the first message to the last one applied. */
  appliedS: number;
  /** When the worker was killed: messages read and applied by then, and the jobs it held. */
  atKill: { read: number; applied: number; mailJobs: number; eventJobs: number };
  /** Seconds until the program started again said its workers run. */
  restartS: number;
  /** Messages answered 250 whose event is not applied. */
  lost: number;
}

/**
 * The service's worker program (`workers/main.ts`, WORKERS=events) in a process of its own takes the
 * messages sent to the listener; once it has read half of them it is killed with SIGKILL, holding
 * what jobs it holds, and started again. Then every message answered 250 must be applied: the jobs
 * of the killed process run again once their locks run out (30 s, checked every 30 s).
 */
export async function killRun(setting: KillRunSetting): Promise<KillRunResult> {
  const { db, deadline, cleanup, connection, prefix, workerEnv, before, messages } = setting;
  const mailQueue = new Queue(MAIL_QUEUE, { connection, prefix });
  const eventsQueue = new Queue(EVENTS_QUEUE, { connection, prefix });
  cleanup.push('close the queues', () => Promise.all([mailQueue.close(), eventsQueue.close()]));
  let worker = await startWorkerProcess(workerEnv);
  cleanup.push('stop the worker process', () => worker.stop());

  const started = performance.now();
  const kill = (async () => {
    await reached(db, deadline, 'read', before + Math.ceil(messages / 2));
    await worker.kill();
    // The killed process's jobs stay active until their locks run out: what it held.
    const now = await progress(db);
    const atKill = {
      read: now.read - before,
      applied: now.applied - before,
      mailJobs: await mailQueue.getActiveCount(),
      eventJobs: await eventsQueue.getActiveCount(),
    };
    const restarting = performance.now();
    worker = await startWorkerProcess(workerEnv);
    return { atKill, restartS: (performance.now() - restarting) / 1000 };
  })();
  // Settled here when the sending fails first; its outcome is read below.
  kill.catch(() => undefined);
  const sent = await beforeDeadline(
    deadline,
    sendOverSmtp(setting.port, benchMessages(messages, 'killed'), setting.clients),
  );
  const acceptedS = (performance.now() - started) / 1000;
  const { atKill, restartS } = await beforeDeadline(deadline, kill);
  const done = await secondsUntil(db, deadline, before + sent.accepted.length, started);
  const lost = await notApplied(db, sent.accepted);
  return { sent, acceptedS, appliedS: done.applied, atKill, restartS, lost: lost.length };
}
