import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import { expectAccessible, useBrowser } from '../support/browser.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { useTestApp } from '../support/test-app.js';
import { accountNamed, addEntries, type ConsoleAccount, signInToConsole } from './console-fixtures.js';

const app = useTestApp({ redis: 'live', console: { dir: inject('consoleDir') } });
const browser = useBrowser();

async function freshAccount(): Promise<ConsoleAccount> {
  return accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
}

const signIn = (page: Page, token: string) => signInToConsole(page, app.server.url, token);

async function listedByApi(token: string): Promise<string[]> {
  const response = await apiClient(app.server.url, token).get('/suppressions?limit=100');
  return response.body.data.map((entry: { email: string }) => entry.email);
}

describe('removing addresses that complained', () => {
  it('when a complaint entry is removed from its page, then Remove waits for a reason, and the reason is kept in its history', async () => {
    const account = await freshAccount();
    const email = uniqueEmail();
    await addEntries(app.database.db, account.accountId, [email], 'complaint');
    const { page } = await browser.open();
    await signIn(page, account.token);
    await page.getByRole('link', { name: email }).click();
    await page.getByRole('heading', { name: email }).waitFor();

    await page.getByRole('button', { name: 'Remove from the list' }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${email}?` });
    await dialog.getByText('This address complained about your mail.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Remove' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'the complaint removal dialog');

    await dialog.getByLabel('Why? (kept in the history)').fill('The customer confirmed the complaint was a mistake');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Removed ${email} from the list.` })
      .waitFor();
    const api = apiClient(app.server.url, account.token);
    expect((await api.get(`/suppressions/${email}`)).status).toBe(404);
    const history = await api.get(`/suppressions/${email}/events`);
    expect(history.body.data[0]).toMatchObject({
      type: 'removal',
      removed_by_key_id: account.keyId,
      reason: 'The customer confirmed the complaint was a mistake',
    });
  });

  it('when a selection holds a complaint, then the dialog says how many complained and removes all of them with the reason', async () => {
    const account = await freshAccount();
    const [manual, kept] = uniqueEmails(2);
    const complained = uniqueEmail();
    await addEntries(app.database.db, account.accountId, [kept!, manual!]);
    await addEntries(app.database.db, account.accountId, [complained], 'complaint');
    const { page } = await browser.open();
    await signIn(page, account.token);

    await page.getByLabel(`Select ${manual}`).check();
    await page.getByLabel(`Select ${complained}`).check();
    await page.getByRole('button', { name: 'Remove selected (2)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove 2 addresses?' });
    await dialog.getByText('1 of these addresses complained about your mail.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Remove' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Why? (kept in the history)').fill('Seed inboxes of our own');
    await dialog.getByRole('button', { name: 'Remove' }).click();

    await page.getByRole('status').filter({ hasText: 'Removed 2 addresses from the list.' }).waitFor();
    expect(await listedByApi(account.token)).toEqual([kept]);
  });
});
