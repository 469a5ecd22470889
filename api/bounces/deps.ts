import type { ReclassificationQueue } from '../../src/bounces/reclassification-queue.js';
import type { Database } from '../../src/db/database.js';
import type { Logger } from '../../src/logger.js';

/** What the `/bounces` endpoints talk to. */
export interface BouncesDeps {
  db: Database;
  logger: Logger;
  /** Queues reclassifications for the workers; without it, they answer 503. */
  reclassifications?: Pick<ReclassificationQueue, 'queue'> | undefined;
}
