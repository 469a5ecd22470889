import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventProducer } from '../../src/events/event-producer.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { newAccount } from '../support/accounts.js';
import { startServiceProcess, type ServiceProcess } from '../support/built-service.js';
import { uniqueEmail } from '../support/emails.js';
import { sharedBuild } from '../support/shared-build.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { bounceEvent } from '../support/test-events.js';
import { createTestQueue, eventually, type TestQueue } from '../support/test-queue.js';

let secrets: string;
let database: TestDatabase;
let events: TestQueue;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  [secrets, database, events] = await Promise.all([
    mkdtemp(path.join(tmpdir(), 'sl-secrets-')),
    createTestDatabase(),
    createTestQueue(EVENTS_QUEUE),
  ]);
});

afterAll(async () => {
  await service?.stop();
  await events?.cleanup();
  await database?.drop();
  await rm(secrets, { recursive: true, force: true });
});

describe('secrets mounted as files', () => {
  it('when the process has only DATABASE_URL_FILE and REDIS_URL_FILE, then it reads both, is ready, answers checks and applies events', async () => {
    const databaseUrlFile = path.join(secrets, 'database-url');
    const redisUrlFile = path.join(secrets, 'redis-url');
    await writeFile(databaseUrlFile, `${database.url}\n`);
    await writeFile(redisUrlFile, `${events.redisUrl}\n`);

    service = await startServiceProcess({ dir: await sharedBuild() }, 'cli/main.js start', {
      DATABASE_URL_FILE: databaseUrlFile,
      REDIS_URL_FILE: redisUrlFile,
      QUEUE_PREFIX: events.prefix,
      HOST: '127.0.0.1',
      PORT: '0',
    });
    const url = service.url as string;
    const { accountId, token } = await newAccount(database.db);
    // The process listens before its Redis client has connected: until then `/ready` says so.
    let ready = { status: 0, body: {} as unknown };
    await eventually(
      async () => {
        const answer = await fetch(`${url}/ready`);
        ready = { status: answer.status, body: await answer.json() };
        return answer.status === 200;
      },
      10_000,
      'ready',
    );
    const check = await fetch(`${url}/suppressions/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ emails: [uniqueEmail()] }),
    });
    const producer = createEventProducer({ connection: events.redisUrl, prefix: events.prefix });
    await producer.publish(bounceEvent(accountId, uniqueEmail())).finally(() => producer.close());

    expect(ready).toEqual({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok', redis: 'ok' } },
    });
    expect(check.status).toBe(200);
    await eventually(
      async () => {
        const { rows } = await database.db.query({
          text: 'SELECT 1 FROM suppression_events WHERE account_id = $1',
          values: [accountId],
        });
        return rows.length === 1;
      },
      10_000,
      'the event applied',
    );
  });
});
