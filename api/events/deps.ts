import type { PublishEvents } from '../../src/events/posted-events.js';
import type { Metrics } from '../../src/metrics.js';

/** What the `/events` endpoints talk to. */
export interface EventsDeps {
  /** Queues the events of `POST /events` on the events queue; without it, they answer 503. */
  publish?: PublishEvents | undefined;
  /** Counts the events queued, by type, in `posted_events_total`. */
  metrics: Pick<Metrics, 'postedEvents'>;
}
