import {
  AbstractStartedContainer,
  type StartedTestContainer,
  type StopOptions,
  type StoppedTestContainer,
} from 'testcontainers';
import {
  createEventProducer,
  createSuppressionClient,
  type EventProducer,
  type SuppressionClient,
  type SuppressionClientOptions,
} from '../index.js';
import { issueApiKey, type ApiKeyRequest, type IssuedApiKey } from './api-keys.js';
import type { BackingStores } from './backing-stores.js';
import { DEFAULT_ACCOUNT, HTTP_PORT } from './defaults.js';

/** One record of an address's history (`GET /suppressions/{email}/events`), as far as a test needs it. */
export interface HistoryRecord {
  event_id: string;
  type: string;
  outcome: string;
  email: string;
  [field: string]: unknown;
}

// A few requests a second: well within the account's rate limit (RATE_LIMIT_PER_SECOND, 10 by
// default), which the test's own requests share.
const POLL_MS = 250;
/** Answers after which the history is asked again: not there yet, or over the rate limit. */
const ASK_AGAIN = new Set([404, 429]);

/** What `SuppressionListContainer.start()` made, beside the container. */
export interface StartedDetails {
  accountId: string;
  apiKey: string;
  sendingApiKey: string;
  hostRedisUrl: string;
  queuePrefix: string | undefined;
  smtpPort: number | undefined;
  adminToken: string | undefined;
  stores: BackingStores;
}

/** The running service, its account's keys, and clients that talk to it from the test. */
export class StartedSuppressionListContainer extends AbstractStartedContainer {
  private producer: EventProducer | undefined;

  constructor(
    started: StartedTestContainer,
    private readonly details: StartedDetails,
  ) {
    super(started);
  }

  /** The API's address from the test, e.g. `http://127.0.0.1:32768`. */
  getBaseUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(HTTP_PORT)}`;
  }

  /** A `full_access` key of the account `test`. */
  getApiKey(): string {
    return this.details.apiKey;
  }

  /** A `sending_access` key of the same account: it may only check addresses. */
  getSendingApiKey(): string {
    return this.details.sendingApiKey;
  }

  /** The id of the account the keys belong to, as events name it (`account_id`). */
  getAccountId(): string {
    return this.details.accountId;
  }

  /** The Redis the service's queues are on, as the test reaches it. */
  getRedisUrl(): string {
    return this.details.hostRedisUrl;
  }

  /** The host's port of the SMTP listener; throws unless the container was made `withSmtpPort()`. */
  getSmtpPort(): number {
    if (this.details.smtpPort === undefined) {
      throw new Error('The SMTP listener is off: start the container withSmtpPort() to run it.');
    }
    return this.getMappedPort(this.details.smtpPort);
  }

  /** The queue dashboard's token given to `withAdminToken()`, if one was. */
  getAdminToken(): string | undefined {
    return this.details.adminToken;
  }

  /** The package's client of the check, with the `full_access` key unless `options` give another. */
  getClient(options: Partial<SuppressionClientOptions> = {}): SuppressionClient {
    return createSuppressionClient({ baseUrl: this.getBaseUrl(), apiKey: this.details.apiKey, ...options });
  }

  /**
   * The package's event producer on the service's queue, as the mail system uses it; one for the
   * container, closed by `stop()`.
   */
  getEventProducer(): EventProducer {
    this.producer ??= createEventProducer({
      connection: this.details.hostRedisUrl,
      ...(this.details.queuePrefix === undefined ? {} : { prefix: this.details.queuePrefix }),
    });
    return this.producer;
  }

  /**
   * Resolves once the service has applied `event` (an event enqueued with `getEventProducer()`,
   * `POST /events` or a feed): once its record is in the address's history, whatever it did.
   * Rejects after `timeoutMs`. The workers apply events in batches, within a second when idle.
   */
  async waitForEvent(event: { email: string; event_id: string }, timeoutMs = 15_000): Promise<HistoryRecord> {
    const url = `${this.getBaseUrl()}/suppressions/${encodeURIComponent(event.email)}/events?limit=100`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${this.details.apiKey}` } });
      if (response.status !== 200 && !ASK_AGAIN.has(response.status)) {
        throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
      }
      const found =
        response.status === 200
          ? ((await response.json()) as { data: HistoryRecord[] }).data.find(
              (record) => record.event_id === event.event_id,
            )
          : (await response.body?.cancel(), undefined);
      if (found !== undefined) return found;
      if (Date.now() > deadline) {
        throw new Error(`event ${event.event_id} of ${event.email} was not applied within ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Issues another key, for this account or another one (made when it does not exist yet). */
  createApiKey(request: Partial<ApiKeyRequest> = {}): Promise<IssuedApiKey> {
    return issueApiKey(this.startedTestContainer, { account: DEFAULT_ACCOUNT, ...request });
  }

  /**
   * Closes the producer, then stops and removes the service's container and whatever was started for
   * it (containers, volumes, network), each whatever became of the others.
   */
  override async stop(options?: Partial<StopOptions>): Promise<StoppedTestContainer> {
    const producer = this.producer;
    this.producer = undefined;
    const failures: unknown[] = [];
    const attempt = async (step: () => Promise<unknown>): Promise<void> => {
      await step().catch((error: unknown) => failures.push(error));
    };
    let stopped: StoppedTestContainer | undefined;
    await attempt(async () => producer?.close());
    await attempt(async () => {
      stopped = await super.stop(options);
    });
    await attempt(() => this.details.stores.stop());
    if (failures.length > 0 || stopped === undefined) {
      throw failures.length === 1 ? failures[0] : new AggregateError(failures, 'stopping the suppression list failed');
    }
    return stopped;
  }
}
