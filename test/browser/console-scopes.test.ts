import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import { expectAccessible, useBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/emails.js';
import { useTestApp } from '../support/test-app.js';
import { accountNamed, signInToConsole } from './console-fixtures.js';

const app = useTestApp({ redis: 'live', console: { dir: inject('consoleDir') } });
const browser = useBrowser();

const signIn = (page: Page, token: string) => signInToConsole(page, app.server.url, token);

/** The email and scope cells of the list's rows, top to bottom. */
async function rows(page: Page): Promise<string[][]> {
  await page.locator('.list[aria-busy="false"]').waitFor();
  return page
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector('td[data-label="Email"]')?.textContent?.trim() ?? '',
        tr.querySelector('td[data-label="Scope"]')?.textContent?.trim() ?? '',
      ]),
    );
}

describe('scopes in the console', () => {
  it('when entries of the whole account and of a scope are listed, then each row shows its scope, and the scope filter narrows the list', async () => {
    const account = await accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
    const api = apiClient(app.server.url, account.token);
    const [global, reader] = [uniqueEmail(), uniqueEmail()];
    await api.post('/suppressions', { email: global });
    await api.post('/suppressions', { email: reader, scope: 'newsletter' });
    const { page } = await browser.open();
    await signIn(page, account.token);

    expect(await rows(page)).toEqual([
      [reader, 'newsletter'],
      [global, 'All mail'],
    ]);

    await page.getByLabel('Scope').fill('Newsletter');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/scope=newsletter/);
    expect(await rows(page)).toEqual([[reader, 'newsletter']]);
    await expectAccessible(page, 'the list filtered by scope');

    await page.getByRole('link', { name: reader }).click();
    await page.getByRole('heading', { name: reader }).waitFor();
    expect(await page.locator('dt:has-text("Scope") + dd').textContent()).toBe('newsletter');
  });
});
