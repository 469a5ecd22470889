import { randomUUID } from 'node:crypto';
import { Resend } from 'resend';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SuppressionListContainer } from '../../src/testcontainers/index.js';
import type { StartedSuppressionListContainer } from '../../src/testcontainers/index.js';

let sl: StartedSuppressionListContainer;

beforeAll(async () => {
  sl = await new SuppressionListContainer().start();
}, 120_000);

afterAll(async () => {
  await sl?.stop();
});

it('when a recipient hard-bounces, then the next send leaves it out', async () => {
  const bounce = {
    account_id: sl.getAccountId(),
    event_id: randomUUID(),
    type: 'bounce',
    email: 'gone@example.com',
    source_id: randomUUID(),
    occurred_at: new Date().toISOString(),
    bounce: { type: 'permanent', sub_type: 'general', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' },
  } as const;
  await sl.getEventProducer().publish(bounce);
  await sl.waitForEvent(bounce);

  const { sendable } = await sl.getClient().filterSendable(['gone@example.com', 'jane@example.com']);
  expect(sendable).toEqual(['jane@example.com']);
});

it('when a customer suppresses an address with Resend’s SDK, then the check reports it', async () => {
  const resend = new Resend(sl.getApiKey(), { baseUrl: sl.getBaseUrl() });
  await resend.suppressions.add({ email: 'optout@example.com' });

  const { suppressed } = await sl.getClient({ apiKey: sl.getSendingApiKey() }).check(['optout@example.com']);
  expect(suppressed.map((entry) => entry.email)).toEqual(['optout@example.com']);
});
