import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startMailWorker, type MailWorker } from '../../workers/mail-worker.js';
import { queueConfig } from './test-config.js';
import type { TestApp } from './test-app.js';

/** The mail worker on the file's queues beside its app, with the app's settings (`env`): started before the file's tests, closed after. */
export function useMailWorkerBeside(app: TestApp, env: NodeJS.ProcessEnv = {}): void {
  let worker: MailWorker | undefined;
  beforeAll(async () => {
    worker = startMailWorker(queueConfig(app.events.prefix, env), {
      db: app.database.db,
      logger: createLogger('silent'),
      connection: app.events.connection,
    });
    await worker.worker.waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close();
  });
}
