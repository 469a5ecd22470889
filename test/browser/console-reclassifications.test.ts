import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { apiClient } from '../support/api-client.js';
import { expectAccessible, useBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/emails.js';
import { useMaintenanceWorkerBeside } from '../support/test-maintenance-worker.js';
import { useTestApp } from '../support/test-app.js';
import { accountNamed, signInToConsole, type ConsoleAccount } from './console-fixtures.js';

const app = useTestApp({ redis: 'live', queues: true, console: { dir: inject('consoleDir') } });
const browser = useBrowser();
useMaintenanceWorkerBeside(app);

const SPAMHAUS = 'smtp; 554 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org';
const UNKNOWN_USER = 'smtp; 550 5.1.1 <x@example.com>: Recipient address rejected: User unknown';

/**
 * Entries of origin `bounce`, each with one bounce labelled permanent, as the event path wrote them
 * before bounces were classified: suppressed on the label alone. Added in order, so the last is the
 * newest.
 */
async function legacyEntries(accountId: string, diagnostic: string, count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = uniqueEmail();
    const [entry] = await addSuppressions(app.database.db, accountId, [
      { id: newId(), email, origin: 'bounce', sourceId: randomUUID() },
    ]);
    await app.database.db.query({
      text: `INSERT INTO suppression_events (account_id, event_id, type, email, bounce_type, bounce_status, bounce_diagnostic,
               bounce_provider, suppression_id, outcome, occurred_at, received_at)
             VALUES ($1, $2, 'bounce', $3, 'permanent', NULL, $4, 'ses', $5, 'suppressed', now() - interval '1 day', now() - interval '1 day')`,
      values: [accountId, `ses-${randomUUID()}`, email, diagnostic, entry!.id],
    });
    emails.push(email);
  }
  return emails;
}

async function newAccount(): Promise<ConsoleAccount> {
  return accountNamed(app.database.db, `reclassify-${uniqueEmail().split('@')[0]}`);
}

const listedEmails = (page: Page) => page.locator('td[data-label="Email"]').allTextContents();

async function listOf(account: ConsoleAccount): Promise<string[]> {
  const answer = await apiClient(app.server.url, account.token).get('/suppressions?limit=100');
  return answer.body.data.map((entry: { email: string }) => entry.email).sort();
}

describe('the reclassification pages', () => {
  it('when an operator starts a dry run, then its page lists the block-listed entries it would lift, lifts nothing, and lifting them from there lifts exactly those', async () => {
    const account = await newAccount();
    const blocked = await legacyEntries(account.accountId, SPAMHAUS, 2);
    const [dead] = await legacyEntries(account.accountId, UNKNOWN_USER, 1);
    const before = await listOf(account);
    const { page } = await browser.open();
    await signInToConsole(page, app.server.url, account.token);

    await page.getByRole('link', { name: 'Reclassify' }).click();
    await page.getByRole('heading', { name: 'Reclassify bounces' }).waitFor();
    await page.getByRole('button', { name: 'Start a dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of a reclassification' }).waitFor();
    await page.getByRole('heading', { name: 'Completed' }).waitFor();
    await page.getByRole('heading', { name: 'Entries it would lift' }).waitFor();

    expect(await listedEmails(page)).toEqual([...blocked].reverse());
    const firstRow = page.locator('tbody tr').first();
    await firstRow.getByText('Sender blocked').waitFor();
    await firstRow.getByText('Sender on a block list').waitFor();
    await firstRow.getByText(SPAMHAUS).waitFor();
    await firstRow.getByText('reported by ses').waitFor();
    await page.getByText('Dry run: nothing is lifted').waitFor();
    await expectAccessible(page, 'a dry run’s page');
    expect(await listOf(account)).toEqual(before);

    await page.getByRole('button', { name: 'Lift these 2 addresses' }).click();
    const dialog = page.getByRole('dialog', { name: 'Lift 2 addresses?' });
    await dialog.getByRole('button', { name: 'Lift them' }).click();
    await page.getByRole('heading', { name: 'Reclassification', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Completed' }).waitFor();
    await page.getByRole('heading', { name: 'Entries it lifted' }).waitFor();
    expect(await listedEmails(page)).toEqual([...blocked].reverse());
    expect(await listOf(account)).toEqual([dead]);

    await page.getByRole('link', { name: blocked[0]! }).click();
    await page.getByText('Lifted: reclassified bounces no longer suppress it').waitFor();
  });

  it('when a dry run would lift more entries than a page holds, then Next and Previous walk its list, and an id that names no run of the account says so', async () => {
    const account = await newAccount();
    const blocked = await legacyEntries(account.accountId, SPAMHAUS, 53);
    const newestFirst = [...blocked].reverse();
    const { page } = await browser.open();
    await signInToConsole(page, app.server.url, account.token);

    await page.getByRole('link', { name: 'Reclassify' }).click();
    await page.getByRole('button', { name: 'Start a dry run' }).click();
    await page.getByRole('heading', { name: 'Completed' }).waitFor();
    await page.getByRole('button', { name: 'Lift these 53 addresses' }).waitFor();
    await page.locator('td[data-label="Email"]').nth(49).waitFor();
    expect(await listedEmails(page)).toEqual(newestFirst.slice(0, 50));
    expect(await page.getByRole('button', { name: '← Previous' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Next →' }).click();
    await page.getByRole('cell', { name: newestFirst[52]! }).waitFor();
    expect(await listedEmails(page)).toEqual(newestFirst.slice(50));
    expect(await page.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: '← Previous' }).click();
    await page.getByRole('cell', { name: newestFirst[0]! }).waitFor();
    expect(await listedEmails(page)).toEqual(newestFirst.slice(0, 50));

    // An address that names no run of the account says so.
    await page.goto(`${app.server.url}/console/reclassify/${newId()}`);
    await page.getByText('No reclassification has this id in your account.').waitFor();
  });
});
