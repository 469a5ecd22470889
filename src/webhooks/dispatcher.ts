import type { Database } from '../db/database.js';
import { changePayload } from './change-payload.js';
import { deliverChanges, findOverdueDeliveries, takeChanges } from './delivery-repository.js';
import type { Logger } from '../logger.js';
import type { DueDelivery } from './delivery.js';

export interface DispatcherOptions {
  db: Database;
  logger: Logger;
  /** Queues deliveries to be attempted now. */
  queue: (due: readonly DueDelivery[]) => Promise<void>;
  /** How often an empty outbox is looked at again. */
  pollMs?: number;
  /** Outbox rows turned into deliveries per transaction. */
  batchSize?: number;
  /** How often deliveries overdue by more than `overdueGraceMs` are queued again. */
  sweepEveryMs?: number;
  overdueGraceMs?: number;
}

export interface Dispatcher {
  /** Runs one sweep now: overdue deliveries queued again, old finished ones deleted. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Turns up to `limit` outbox rows into deliveries, each with the payload its attempts will sign, and
 * deletes them, in one transaction; returns the deliveries made, to be queued. A delivery made here
 * but never queued (the process died first) is found by the sweep.
 */
export function dispatchChanges(db: Database, limit: number): Promise<DueDelivery[]> {
  return db.withTransaction(async (client) => {
    const changes = await takeChanges(client, limit);
    if (changes.length === 0) return [];
    return deliverChanges(
      client,
      changes.map((change) => ({ change, payload: changePayload(change) })),
    );
  });
}

/**
 * Moves changes from the outbox to the delivery queue, and sweeps: a delivery whose job was lost
 * (the process died between its commit and its queueing, or Redis lost the job) is overdue in the
 * database and is queued again. Every worker process runs one; they share the work through the
 * database's row locks and the queue's job ids.
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { db, logger } = options;
  const pollMs = options.pollMs ?? 200;
  const batchSize = options.batchSize ?? 500;
  const sweepEveryMs = options.sweepEveryMs ?? 30_000;
  const overdueGraceMs = options.overdueGraceMs ?? 60_000;
  let closed = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function dispatchLoop(): Promise<void> {
    while (!closed) {
      try {
        const due = await dispatchChanges(db, batchSize);
        if (due.length > 0) await options.queue(due);
        if (due.length < batchSize) await pause(pollMs);
      } catch (error) {
        logger.warn({ err: error }, 'webhook dispatch failed; retrying');
        await pause(Math.max(pollMs, 1000));
      }
    }
  }

  async function sweep(): Promise<void> {
    const overdue = await findOverdueDeliveries(db, overdueGraceMs, 1000);
    if (overdue.length > 0) {
      logger.info({ deliveries: overdue.length }, 'queueing overdue webhook deliveries again');
      await options.queue(overdue);
    }
  }

  const sweeping = setInterval(() => {
    sweep().catch((error: unknown) => logger.warn({ err: error }, 'webhook sweep failed'));
  }, sweepEveryMs);
  sweeping.unref();
  const running = dispatchLoop();

  return {
    sweep,
    async close() {
      closed = true;
      clearInterval(sweeping);
      wake?.();
      await running;
    },
  };
}
