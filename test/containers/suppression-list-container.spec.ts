import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { Resend } from 'resend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuppressionListContainer, type StartedSuppressionListContainer } from '../../src/testcontainers/index.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { dsn } from '../support/mail-messages.js';
import { footprintOfNetwork, leftOf, networkOf, type Footprint } from './runtime-state.js';

let sl: StartedSuppressionListContainer;
let stopped = false;

beforeAll(async () => {
  sl = await new SuppressionListContainer()
    .withSmtpPort()
    .withEnvironment({ BOUNCE_DOMAINS: 'bounces.example.com' })
    .start();
});

afterAll(async () => {
  if (!stopped) await sl?.stop();
});

async function api(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  return fetch(`${sl.getBaseUrl()}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${init.key ?? sl.getApiKey()}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
  });
}

describe('SuppressionListContainer started from nothing', () => {
  it('when it has started, then /ready answers 200 and its full-access key lists the account’s entries', async () => {
    expect((await fetch(`${sl.getBaseUrl()}/ready`)).status).toBe(200);
    const list = await api('/suppressions');
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ object: 'list', data: [] });
    expect(sl.getAccountId()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when the sending key asks for the list, then it is refused, and when it checks addresses, then it is answered', async () => {
    const key = sl.getSendingApiKey();
    const list = await api('/suppressions', { key });
    expect(list.status).toBe(401);
    expect(await list.json()).toMatchObject({ name: 'restricted_api_key' });
    const check = await api('/suppressions/check', {
      key,
      method: 'POST',
      body: JSON.stringify({ emails: [uniqueEmail()] }),
    });
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({ object: 'suppression_check', checked: 1, suppressed: [] });
  });

  it('when addresses are added with Resend’s SDK, then the exported client reports them suppressed and keeps the others sendable', async () => {
    const [added, other] = uniqueEmails(2);
    const resend = new Resend(sl.getApiKey(), { baseUrl: sl.getBaseUrl() });
    const { error } = await resend.suppressions.add({ email: added! });
    expect(error).toBeNull();

    const client = sl.getClient({ apiKey: sl.getSendingApiKey() });
    const result = await client.check([added!, other!]);
    expect(result.suppressed.map((entry) => entry.email)).toEqual([added]);
    expect(await client.filterSendable([added!, other!])).toMatchObject({ sendable: [other] });
  });

  it('when a hard bounce is enqueued with the exported producer, then it is applied and the address is suppressed', async () => {
    const email = uniqueEmail();
    const event = {
      account_id: sl.getAccountId(),
      event_id: `test-${randomUUID()}`,
      type: 'bounce',
      email,
      source_id: randomUUID(),
      occurred_at: new Date().toISOString(),
      bounce: { type: 'permanent', sub_type: 'general', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' },
    } as const;
    await sl.getEventProducer().publish(event);

    expect(await sl.waitForEvent(event)).toMatchObject({ type: 'bounce', outcome: 'suppressed' });
    const entry = await api(`/suppressions/${encodeURIComponent(email)}`);
    expect(await entry.json()).toMatchObject({ email, origin: 'bounce', source_id: event.source_id });
  });

  it('when a DSN comes back to its SMTP listener on a signed return path, then the recipient is suppressed', async () => {
    const recipient = uniqueEmail();
    const made = await api('/return-paths', { method: 'POST', body: JSON.stringify({ recipients: [recipient] }) });
    expect(made.status).toBe(200);
    const returnPath = ((await made.json()) as { data: { return_path: string }[] }).data[0]!.return_path;

    const transport = nodemailer.createTransport({
      host: sl.getHost(),
      port: sl.getSmtpPort(),
      secure: false,
      ignoreTLS: true,
    });
    const message = dsn(returnPath, [{ recipient, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' }]);
    const sent = await transport.sendMail({ envelope: { from: '', to: [returnPath] }, raw: message });
    transport.close();
    expect(sent.accepted).toEqual([returnPath]);

    let entry = await api(`/suppressions/${encodeURIComponent(recipient)}`);
    for (let asked = 1; entry.status === 404 && asked < 60; asked += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      entry = await api(`/suppressions/${encodeURIComponent(recipient)}`);
    }
    expect(await entry.json()).toMatchObject({ email: recipient, origin: 'bounce' });
  });

  it('when a list is imported with the command line inside the container, then its addresses are on the list', async () => {
    const emails = uniqueEmails(3);
    await sl.copyContentToContainer([{ content: `${emails.join('\n')}\n`, target: '/tmp/seed.txt' }]);
    const imported = await sl.exec([
      'node',
      'dist/cli/main.js',
      'import',
      '/tmp/seed.txt',
      '--account',
      'test',
      '--wait',
    ]);
    expect(imported.exitCode, imported.output).toBe(0);

    const result = await sl.getClient().check(emails);
    expect(result.suppressed.map((entry) => entry.email).sort()).toEqual([...emails].sort());
  });

  it('when a key is made for another account, then that account sees none of the first one’s entries', async () => {
    const email = uniqueEmail();
    expect((await api('/suppressions', { method: 'POST', body: JSON.stringify({ email }) })).status).toBe(201);
    const other = await sl.createApiKey({ account: 'other' });
    expect(other.accountId).not.toBe(sl.getAccountId());

    const seen = await api(`/suppressions/${encodeURIComponent(email)}`, { key: other.token });
    expect(seen.status).toBe(404);
  });

  it('when it is stopped, then none of the containers, volumes or network it started is left', async () => {
    const footprint: Footprint = await footprintOfNetwork(networkOf(sl));
    // The service, its PostgreSQL and its Redis; the two stores' images each declare a volume.
    expect(footprint.containers).toHaveLength(3);
    expect(footprint.volumes.length).toBeGreaterThanOrEqual(2);

    await sl.stop();
    stopped = true;
    expect(await leftOf(footprint)).toEqual({ containers: [], networks: [], volumes: [] });
  });
});
