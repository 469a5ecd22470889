import { createMonthPartitions } from '../../src/db/month-partitions.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount, type Account } from '../../src/accounts/account-repository.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { recordAttempt } from '../../src/webhooks/delivery-repository.js';
import { dispatchChanges } from '../../src/webhooks/dispatcher.js';
import { createWebhook } from '../../src/webhooks/webhook-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Webhook } from '../../src/webhooks/webhook.js';
import { uniqueEmail } from '../support/emails.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();

function cli(...args: string[]): Promise<CliRun> {
  // Debug logs too, so that the secrets check covers everything the command writes.
  return runCli(['webhooks', ...args], { DATABASE_URL: database.url, LOG_LEVEL: 'debug' });
}

const jsonLines = (run: CliRun) =>
  run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

function expectNoSecrets(run: CliRun, ...webhooks: Webhook[]): void {
  const output = run.stdout + run.stderr;
  expect(output).not.toContain('whsec_');
  for (const webhook of webhooks) expect(output).not.toContain(webhook.signingSecret);
}

/** One suppression added in its own statement: one change, and so one delivery per subscribed webhook. */
async function addOne(accountId: string): Promise<string> {
  await addSuppressions(database.db, accountId, [
    { id: newId(), email: uniqueEmail(), origin: 'manual', sourceId: null },
  ]);
  const [due] = await dispatchChanges(database.db, 10);
  if (!due) throw new Error('the change made no delivery');
  return due.deliveryId;
}

const SECOND = 1000;

let acme: Account;
let globex: Account;
let acmeHook: Webhook;
let globexHook: Webhook;

beforeAll(async () => {
  const tag = randomBytes(4).toString('hex');
  acme = await ensureAccount(database.db, `acme-${tag}`);
  globex = await ensureAccount(database.db, `globex-${tag}`);
  acmeHook = await createWebhook(database.db, {
    accountId: acme.id,
    endpoint: 'https://hooks.acme.example/suppressions',
    events: ['suppression.added'],
  });
  globexHook = await createWebhook(database.db, {
    accountId: globex.id,
    endpoint: 'https://globex.example/hook',
    events: ['suppression.added', 'suppression.removed'],
  });
});

describe('npm run cli -- webhooks list', () => {
  it('when listed with --json and no account, then one line per webhook gives its account, endpoint, events, status and creation, and no secret', async () => {
    const run = await cli('list', '--json');
    expect(run.code, run.stderr).toBe(0);
    const rows = jsonLines(run);
    expect(rows).toEqual([
      {
        webhook_id: acmeHook.id,
        account_id: acme.id,
        account: acme.name,
        endpoint: acmeHook.endpoint,
        events: ['suppression.added'],
        status: 'enabled',
        created_at: acmeHook.createdAt.toISOString(),
      },
      {
        webhook_id: globexHook.id,
        account_id: globex.id,
        account: globex.name,
        endpoint: globexHook.endpoint,
        events: ['suppression.added', 'suppression.removed'],
        status: 'enabled',
        created_at: globexHook.createdAt.toISOString(),
      },
    ]);
    expectNoSecrets(run, acmeHook, globexHook);
  });

  it('when listed as text, then a table shows every webhook without its secret', async () => {
    const run = await cli('list');
    expect(run.code, run.stderr).toBe(0);
    for (const shown of [acmeHook.id, acme.name, acmeHook.endpoint, globexHook.id, globex.name, globexHook.endpoint]) {
      expect(run.stdout).toContain(shown);
    }
    expect(run.stdout).toContain('suppression.added, suppression.removed');
    expectNoSecrets(run, acmeHook, globexHook);
  });

  it('when --account names an account or gives its id, then only its webhooks are listed', async () => {
    const byName = await cli('list', '--account', acme.name, '--json');
    expect(byName.code, byName.stderr).toBe(0);
    expect(jsonLines(byName).map((row) => row.webhook_id)).toEqual([acmeHook.id]);

    const byId = await cli('list', '--account', globex.id);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toContain(globexHook.id);
    expect(byId.stdout).not.toContain(acmeHook.id);
    expectNoSecrets(byName, acmeHook);
    expectNoSecrets(byId, globexHook);
  });

  it('when --account names no account, then the error says so and nothing is listed', async () => {
    const run = await cli('list', '--account', `nobody-${randomBytes(4).toString('hex')}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No account named or with id "nobody-/);
    expect(run.stdout).toBe('');
  });
});

describe('npm run cli -- webhooks deliveries', () => {
  let retried: string;
  let unreachable: string;
  let pending: string;
  const sentAt = new Date('2030-01-02T03:04:05.000Z');
  const retryAt = new Date('2030-01-02T03:09:05.000Z');
  // An endpoint's answer is its own: long, on several lines, with a terminal escape sequence.
  const hostileResponse = `\u001b[31mred\nalert\u001b[0m ${'x'.repeat(400)}`;

  beforeAll(async () => {
    retried = await addOne(acme.id);
    // The attempts are dated in 2030, whose month partition nothing else would have made yet.
    await createMonthPartitions(database.db, ['webhook_attempts'], sentAt);
    await recordAttempt(database.db, {
      deliveryId: retried,
      attempt: 0,
      httpStatusCode: 500,
      response: 'boom',
      sentAt,
      durationMs: 42,
      status: 'attempting',
      nextAttemptAt: retryAt,
    });
    await recordAttempt(database.db, {
      deliveryId: retried,
      attempt: 1,
      httpStatusCode: 200,
      response: 'ok',
      sentAt: retryAt,
      durationMs: 7,
      status: 'success',
      nextAttemptAt: null,
    });
    unreachable = await addOne(acme.id);
    await recordAttempt(database.db, {
      deliveryId: unreachable,
      attempt: 0,
      httpStatusCode: 0,
      response: hostileResponse,
      sentAt,
      durationMs: 15_000,
      status: 'attempting',
      nextAttemptAt: new Date(sentAt.getTime() + 5 * SECOND),
    });
    pending = await addOne(acme.id);
  });

  it('when asked with --json, then one document lists the deliveries newest first, each with its attempts newest first', async () => {
    const run = await cli('deliveries', acmeHook.id, '--json');
    expect(run.code, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document).toMatchObject({
      webhook_id: acmeHook.id,
      account_id: acme.id,
      account: acme.name,
      endpoint: acmeHook.endpoint,
      has_more: false,
    });
    expect(document.deliveries.map((delivery: { id: string }) => delivery.id)).toEqual([pending, unreachable, retried]);
    const [first, second, third] = document.deliveries;
    expect(first).toMatchObject({ type: 'suppression.added', status: 'pending', attempts: [] });
    expect(first.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Date.parse(first.created_at)).not.toBeNaN();
    expect(Date.parse(first.next_attempt_at)).not.toBeNaN();
    expect(second).toMatchObject({ status: 'attempting', next_attempt_at: '2030-01-02T03:04:10.000Z' });
    expect(second.attempts).toEqual([
      {
        sent_at: sentAt.toISOString(),
        http_status_code: 0,
        response: hostileResponse.slice(0, 200),
        duration_ms: 15_000,
      },
    ]);
    expect(third).toMatchObject({ type: 'suppression.added', status: 'success', next_attempt_at: null });
    expect(third.attempts).toEqual([
      { sent_at: retryAt.toISOString(), http_status_code: 200, response: 'ok', duration_ms: 7 },
      { sent_at: sentAt.toISOString(), http_status_code: 500, response: 'boom', duration_ms: 42 },
    ]);
    expectNoSecrets(run, acmeHook);
  });

  it('when asked as text, then each delivery is a line with its attempts beneath, responses on one line and cut short', async () => {
    const run = await cli('deliveries', acmeHook.id);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe(`Webhook ${acmeHook.id} of account "${acme.name}": ${acmeHook.endpoint} (enabled)`);
    expect(lines[1]).toBe('3 deliveries, newest first.');
    const row = (id: string) => lines.findIndex((line) => line.startsWith(id));
    expect(row(pending)).toBeLessThan(row(unreachable));
    expect(row(unreachable)).toBeLessThan(row(retried));
    expect(lines[row(pending)]).toMatch(/suppression\.added\s+pending/);
    expect(lines[row(pending) + 1]?.trim()).toBe('no attempts yet');
    expect(lines[row(retried)]).toMatch(/success\s+\S+Z\s+-$/);
    expect(lines[row(retried) + 2]).toMatch(new RegExp(`^\\s+${retryAt.toISOString()}\\s+200\\s+7 ms\\s+ok$`));
    expect(lines[row(retried) + 3]).toMatch(new RegExp(`^\\s+${sentAt.toISOString()}\\s+500\\s+42 ms\\s+boom$`));
    const hostile = lines[row(unreachable) + 2] ?? '';
    // The escape characters are blanked; what printable text came with them is harmless.
    const flattened = `[31mred alert [0m ${'x'.repeat(400)}`;
    expect(hostile).toMatch(/\s-\s+15000 ms\s+\[31m/);
    expect(hostile.slice(hostile.indexOf('[31m'))).toBe(`${flattened.slice(0, 200)}…`);
    expect(hostile).not.toContain('\u001b');
    expectNoSecrets(run, acmeHook);
  });

  it('when --limit is smaller than the log, then only the newest are shown and more are announced', async () => {
    const json = await cli('deliveries', acmeHook.id, '--limit', '1', '--json');
    expect(json.code, json.stderr).toBe(0);
    const document = JSON.parse(json.stdout);
    expect(document.deliveries.map((delivery: { id: string }) => delivery.id)).toEqual([pending]);
    expect(document.has_more).toBe(true);

    const text = await cli('deliveries', acmeHook.id.toUpperCase(), '--limit', '2');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('2 deliveries, newest first; older ones with a higher --limit.');
    expect(text.stdout).not.toContain(retried);
  });

  it('when the webhook has no deliveries, then it says so', async () => {
    const run = await cli('deliveries', globexHook.id);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('No deliveries.');
  });

  it('when the id names no webhook, then the error says so on stderr and the exit code is 1', async () => {
    const id = randomUUID();
    const run = await cli('deliveries', id, '--json');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`No webhook with id ${id}.`);
    expect(run.stdout).toBe('');
  });

  it('when the id is not a UUID, or --limit not a whole number, then the command fails before any lookup', async () => {
    const notId = await cli('deliveries', 'msg_123');
    expect(notId.code).toBe(1);
    expect(notId.stderr).toContain('"msg_123" is not a webhook id (a UUID).');
    expect(notId.stdout).toBe('');

    const badLimit = await cli('deliveries', acmeHook.id, '--limit', '0');
    expect(badLimit.code).toBe(1);
    expect(badLimit.stderr).toContain('must be a whole number of at least 1');
  });
});
