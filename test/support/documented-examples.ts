import { issueApiKey } from '../../src/accounts/api-key-repository.js';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/origins.js';
import { parseSuppressionEvent, type SuppressionEventInput } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { createMonthPartitions } from '../../src/db/month-partitions.js';
import { ShownIds } from './shown-answers.js';

/**
 * What the examples of one document run against: the accounts they speak for (the document names
 * them, or says "another account"), and the ids met so far.
 */
export class DocumentRun {
  readonly ids = new ShownIds();
  private readonly accounts = new Map<string, DocumentAccount>();
  private active: DocumentAccount | undefined;

  constructor(
    readonly db: Database,
    readonly baseUrl: string,
  ) {}

  /** The account the examples speak for from now on, made with a full and a sending key when new. */
  async use(name: string): Promise<DocumentAccount> {
    let account = this.accounts.get(name);
    if (!account) {
      const full = await issueApiKey(this.db, { accountName: name, permission: 'full_access', name: 'docs' });
      const sending = await issueApiKey(this.db, { accountName: name, permission: 'sending_access', name: 'docs' });
      account = { name, accountId: full.accountId, token: full.token, sendingToken: sending.token };
      this.accounts.set(name, account);
    }
    this.active = account;
    return account;
  }

  get account(): DocumentAccount {
    if (!this.active) throw new Error('No account is in use yet.');
    return this.active;
  }

  /** A request of the account's full key, for what a given makes through the API. */
  async api(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.account.token}`, 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** Entries added as an import or an event adds them, in order. */
  async add(entries: readonly { email: string; origin?: Origin; scope?: string; sourceId?: string }[]): Promise<void> {
    await addSuppressions(
      this.db,
      this.account.accountId,
      entries.map((entry) => ({
        id: newId(),
        email: entry.email,
        origin: entry.origin ?? 'manual',
        sourceId: entry.sourceId ?? null,
        scope: entry.scope ?? null,
      })),
    );
  }

  /** Bounces recorded as the event worker records them, then given the time they were received at. */
  async bounces(
    bounces: readonly {
      email: string;
      eventId?: string;
      sourceId?: string;
      occurredAt?: string;
      receivedAt?: string;
      type?: 'permanent' | 'transient';
      status: string;
      diagnostic: string;
    }[],
  ): Promise<void> {
    const events: SuppressionEventInput[] = bounces.map((bounce) => ({
      account_id: this.account.accountId,
      event_id: bounce.eventId ?? `mta-${newId()}`,
      type: 'bounce',
      email: bounce.email,
      source_id: bounce.sourceId ?? newId(),
      occurred_at: bounce.occurredAt ?? bounce.receivedAt ?? new Date().toISOString(),
      bounce: {
        type: bounce.type ?? 'permanent',
        sub_type: 'general',
        status: bounce.status,
        diagnostic: bounce.diagnostic,
      },
    }));
    await recordEventBatch(this.db, events.map(parseSuppressionEvent));
    for (const [index, bounce] of bounces.entries()) {
      if (bounce.receivedAt === undefined) continue;
      await createMonthPartitions(this.db, ['suppression_events'], new Date(bounce.receivedAt));
      await this.db.query({
        text: 'UPDATE suppression_events SET received_at = $3 WHERE account_id = $1 AND event_id = $2',
        values: [this.account.accountId, events[index]!.event_id, bounce.receivedAt],
      });
    }
  }
}

export interface DocumentAccount {
  name: string;
  accountId: string;
  token: string;
  sendingToken: string;
}

/** What one example needs that its document does not show being made. */
export interface Given {
  /** A piece of the command of the one example it is for. */
  before: string;
  /** The account this example and those after it speak for. */
  account?: string;
  setup?: (run: DocumentRun) => Promise<void>;
  /** The service's clock during the example: the answer shows a default of "now". */
  at?: string;
  /** Why only the answer's fields are compared, not their values. */
  shapeOnly?: string;
}

/** An example the test does not send, and why. */
export interface NotRun {
  command: string;
  reason: string;
}
