import type { Database } from '../../src/db/database.js';
import type { AttributionSettings } from '../../src/mail/messages/attribution.js';
import type { MailProducer } from '../../src/mail/messages/mail-producer.js';

/** What the `/messages` endpoints talk to. */
export interface MessagesDeps {
  db: Database;
  /** Where the service's return paths are, and the bounce domains that act without one. */
  settings: AttributionSettings;
  /** `MAIL_MAX_MESSAGE_BYTES`. */
  maxBytes: number;
  /** Queues uploaded messages for the mail worker; without it, `POST /messages` answers 503. */
  mail?: Pick<MailProducer, 'queue'> | undefined;
}
