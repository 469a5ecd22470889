import type { ReclassificationQueue } from '../../src/bounces/reclassification-queue.js';
import type { Database } from '../../src/db/database.js';
import type { Reads } from '../../src/db/reads.js';
import type { Logger } from '../../src/logger.js';

/** What the `/bounces` endpoints talk to. */
export interface BouncesDeps {
  db: Database;
  logger: Logger;
  /** Queues reclassifications for the workers; without it, they answer 503. */
  reclassifications?: Pick<ReclassificationQueue, 'queue'> | undefined;
  /** Marks the account while a reclassification it follows lifts entries, whose reads then stay on the primary. */
  reads?: Pick<Reads, 'wrote'> | undefined;
}
