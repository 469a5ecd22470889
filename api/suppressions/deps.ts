import type { BatchProducer } from '../../src/batches/batch-producer.js';
import type { Database } from '../../src/db/database.js';
import type { Reads } from '../../src/db/reads.js';
import type { Logger } from '../../src/logger.js';
import type { Metrics } from '../../src/metrics.js';
import type { SuppressionLookups } from '../../src/suppressions/suppression-lookups.js';

/** What the `/suppressions` endpoints talk to. */
export interface SuppressionsDeps {
  db: Database;
  logger: Logger;
  /**
   * Lookups, checks, the list and the export read through it (from a replica when one may answer);
   * each write marks its account, whose reads then stay on the primary.
   */
  reads: Reads;
  /** Made once for the API and the console alike: concurrent lookups of one tick share one query per account. */
  lookups: SuppressionLookups;
  /** Where the check counts the addresses it answered for. */
  metrics: Pick<Metrics, 'checkAddresses'>;
  /** Queues the batch jobs of imports (and looks them up); without it, imports answer 503. */
  imports?: Pick<BatchProducer, 'add' | 'outcome'> | undefined;
}
