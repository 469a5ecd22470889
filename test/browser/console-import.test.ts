import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import { expectAccessible, screenshot, useBrowser } from '../support/browser.js';
import { uniqueEmails } from '../support/emails.js';
import { useTestApp } from '../support/test-app.js';
import { accountNamed, type ConsoleAccount } from './console-fixtures.js';
import { useBatchWorkerBeside } from '../support/test-batch-worker.js';

const app = useTestApp({ redis: 'live', queues: true, console: { dir: inject('consoleDir') } });
const browser = useBrowser();
useBatchWorkerBeside(app);
let files: string;

beforeAll(async () => {
  files = await mkdtemp(path.join(tmpdir(), 'sl-console-import-'));
});
afterAll(async () => {
  if (files) await rm(files, { recursive: true, force: true });
});

async function signIn(page: Page, account: ConsoleAccount): Promise<void> {
  await page.goto(`${app.server.url}/console`);
  await page.getByLabel('API key').fill(account.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.list[aria-busy="false"]').waitFor();
}

/** The `<progress>` bar's value, of 100. */
async function progressOf(page: Page, label: RegExp): Promise<number> {
  return Number(await page.getByLabel(label).getAttribute('value'));
}

describe('importing a file', () => {
  it('when a CSV with a bad line and a repeat is imported, then both bars reach the end, the counts appear, and the export holds every address', async () => {
    const account = await accountNamed(app.database.db, 'acme');
    const emails = uniqueEmails(3000, 'import.example.com');
    const lines = ['email', ...emails.slice(0, 1500), 'not-an-address', emails[0]!, ...emails.slice(1500)];
    const file = path.join(files, 'suppressions.csv');
    await writeFile(file, `${lines.join('\n')}\n`);
    const { page } = await browser.open();
    await signIn(page, account);

    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByLabel('File').setInputFiles(file);
    await page.getByLabel('Origin of the imported entries').selectOption('bounce');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 30_000 });

    expect(await progressOf(page, /^Upload/)).toBe(100);
    expect(await progressOf(page, /^Processed/)).toBe(100);
    await page.getByRole('status').filter({ hasText: 'Done: 3,000 addresses added to the list.' }).waitFor();
    const counts = await page.locator('dl.counts').innerText();
    expect(counts).toMatch(/Added\s+3,000/);
    expect(counts).toMatch(/Duplicates in the file\s+1\b/);
    expect(counts).toMatch(/Not addresses\s+1\b/);
    expect(await page.locator('.line-errors').innerText()).toMatch(
      /line 1502: "not-an-address" is not a valid email address/,
    );
    await expectAccessible(page, 'a finished import');
    await screenshot(page, 'import', { fullPage: true });

    await page.getByRole('link', { name: 'List', exact: true }).click();
    await page.getByLabel('Origin').selectOption('bounce');
    await page.locator('.list[aria-busy="false"] tbody tr').first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export bounce entries as CSV' }).click(),
    ]);
    const exported = (await readFile(await download.path(), 'utf8')).trim().split('\n');
    expect(exported[0]).toBe('id,email,origin,source_id,created_at,scope');
    expect(
      exported
        .slice(1)
        .map((line) => line.split(',')[1])
        .sort(),
    ).toEqual([...emails].sort());
    const total = await apiClient(app.server.url, account.token).get('/suppressions?origin=bounce&limit=1');
    expect(total.status).toBe(200);
  });
});
