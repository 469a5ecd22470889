import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventProducer, type EventProducer } from '../../src/events/event-producer.js';
import { InvalidEventError } from '../../src/events/event-schema.js';
import { eventJobId } from '../../src/events/job-id.js';
import type { MailMessageRow } from '../../src/mail/messages/mail-message-repository.js';
import { batchedMailMessageStore, batchedPublisher } from '../../src/mail/messages/mail-reader-batches.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail } from '../support/emails.js';
import { useTestDatabase } from '../support/test-database.js';
import { bounceEvent } from '../support/test-events.js';
import { createTestQueue, type TestQueue } from '../support/test-queue.js';

const database = useTestDatabase();
let events: TestQueue;
let producer: EventProducer;

beforeAll(async () => {
  events = await createTestQueue(EVENTS_QUEUE);
  producer = createEventProducer({ connection: events.connection, prefix: events.prefix });
});

afterAll(async () => {
  await producer?.close();
  await events?.cleanup();
});

function row(overrides: Partial<MailMessageRow> = {}): MailMessageRow {
  return {
    digest: randomBytes(32).toString('hex'),
    accountId: null,
    source: 'smtp',
    receivedAt: new Date().toISOString(),
    size: 100,
    format: 'rfc3464',
    verified: false,
    unverifiedReason: 'no_return_path',
    records: [{ index: 0, kind: 'bounce', recipient: 'it"s@example.org', outcome: 'unverified', event_id: null }],
    ...overrides,
  };
}

describe('the mail messages of concurrent readers, one statement for all', () => {
  it('when messages are recorded and asked for side by side, then each is answered for itself, and one the database refuses fails alone', async () => {
    const store = batchedMailMessageStore(database.db);
    const rows = [row(), row(), row({ accountId: (await newAccount(database.db)).accountId, verified: true })];
    const refused = row({ source: 'carrier-pigeon' as MailMessageRow['source'] });

    const recorded = await Promise.allSettled([...rows, refused].map((one) => store.record(one)));
    const read = await Promise.all([...rows, refused, row()].map((one) => store.isRead(one.digest)));

    expect(recorded.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(read).toEqual([true, true, true, false, false]);
    const { rows: stored } = await database.db.query<{ records: unknown }>({
      text: 'SELECT records FROM mail_messages WHERE digest = $1',
      values: [Buffer.from(rows[0]!.digest, 'hex')],
    });
    expect(stored[0]?.records).toEqual(rows[0]!.records);
  });

  it('when the same message is recorded twice in one statement, then it is recorded once', async () => {
    const store = batchedMailMessageStore(database.db);
    const twice = row();

    await Promise.all([store.record(twice), store.record({ ...twice, format: 'postfix' })]);

    const { rows: stored } = await database.db.query<{ n: number }>({
      text: 'SELECT count(*)::int AS n FROM mail_messages WHERE digest = $1',
      values: [Buffer.from(twice.digest, 'hex')],
    });
    expect(stored[0]?.n).toBe(1);
  });
});

describe('the events of concurrent readers, one call for all', () => {
  it('when one message gives an event the producer refuses, then that message fails alone and the others are queued', async () => {
    const publish = batchedPublisher((list) => producer.publishMany(list));
    const accountId = randomUUID();
    const good = [
      [bounceEvent(accountId, uniqueEmail())],
      [bounceEvent(accountId, uniqueEmail()), bounceEvent(accountId, uniqueEmail())],
    ];
    const bad = [bounceEvent(accountId, 'not-an-address')];

    const outcomes = await Promise.allSettled([publish(good[0]!), publish(bad), publish(good[1]!)]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(InvalidEventError);
    for (const event of good.flat()) {
      expect(await events.queue.getJob(eventJobId(event.account_id, event.event_id))).toBeDefined();
    }
    expect(await events.queue.getJob(eventJobId(bad[0]!.account_id, bad[0]!.event_id))).toBeUndefined();
  });
});
