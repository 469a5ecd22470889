import type { Database } from '../../src/db/database.js';
import type { Logger } from '../../src/logger.js';
import type { DueDelivery } from '../../src/webhooks/delivery.js';

/** What the `/webhooks` endpoints talk to. */
export interface WebhooksDeps {
  db: Database;
  logger: Logger;
  /** `WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS`: endpoints may be `http://` and private addresses. */
  allowPrivateEndpoints: boolean;
  /** `WEBHOOKS_PRIVATE_CIDRS`: the private ranges `https://` endpoints may be in. */
  privateCidrs: readonly string[];
  /** Queues a replayed delivery at once; without it, the worker's sweeper queues it. */
  queue?: ((due: readonly DueDelivery[]) => Promise<void>) | undefined;
}
