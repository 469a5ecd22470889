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

describe('the allowlist page', () => {
  it('when a domain with entries on the list is allowlisted, then the page counts them and opens them in the list; removing the rule ends it', async () => {
    const account = await accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
    const api = apiClient(app.server.url, account.token);
    const domain = `staff-${uniqueEmail()
      .split('@')[0]!
      .replace(/[^a-z0-9]/g, '')}.example`;
    await api.post('/suppressions/batch/add', { emails: [`ann@${domain}`, `bob@${domain}`, uniqueEmail()] });
    const { page } = await browser.open();
    await signIn(page, account.token);

    await page.getByRole('link', { name: 'Allowlist' }).click();
    await page.getByRole('heading', { name: 'Allowlist' }).waitFor();
    await page.getByLabel('Address or domain').fill(domain);
    await page.getByLabel('Note (optional)').fill('Our own staff');
    await page.getByRole('button', { name: 'Allowlist', exact: true }).click();
    await page.getByText(`${domain} is allowlisted. 2 entries are on the list already`).waitFor();
    await page.getByRole('cell', { name: 'Our own staff' }).waitFor();
    await expectAccessible(page, 'the allowlist page');
    const check = await api.post('/suppressions/check', { emails: [`ann@${domain}`] });
    expect(check.body.suppressed).toEqual([]);

    await page.getByRole('link', { name: 'Open them in the list to remove' }).click();
    await page.locator('.list[aria-busy="false"]').waitFor();
    expect(await page.locator('td[data-label="Email"]').allTextContents()).toEqual([`bob@${domain}`, `ann@${domain}`]);

    await page.getByRole('link', { name: 'Allowlist' }).click();
    await page.getByRole('button', { name: `Remove ${domain} from the allowlist` }).click();
    await page.getByText(`${domain} is no longer allowlisted`).waitFor();
    expect((await api.get('/allowlist')).body.data).toEqual([]);
  });
});
