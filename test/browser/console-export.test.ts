import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectAccessible, useBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/emails.js';
import { useTestApp } from '../support/test-app.js';
import { accountNamed, addEntries, signInToConsole } from './console-fixtures.js';

const app = useTestApp({ redis: 'live', console: { dir: inject('consoleDir') } });
const browser = useBrowser();

const signIn = (page: Page, token: string) => signInToConsole(page, app.server.url, token);

/** Clicks the export link and gives back the downloaded file's lines, the header first. */
async function exportedLines(page: Page): Promise<string[]> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export all as CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('suppressions.csv');
  return (await readFile(await download.path(), 'utf8')).trim().split('\n');
}

/** The email column of each line after the header. */
function emailCells(lines: string[]): string[] {
  return lines.slice(1).map((line) => line.split(',')[1]!);
}

describe('exporting for a spreadsheet', () => {
  it("when 'Safe for spreadsheets' is ticked, then the downloaded CSV's cells that begin with = or + are prefixed with ' and quoted", async () => {
    const { accountId, token } = await accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
    const plain = uniqueEmail();
    await addEntries(app.database.db, accountId, ['=1+1@example.com', '+sum@example.com', plain]);
    const { page } = await browser.open();
    await signIn(page, token);
    const safe = page.getByLabel('Safe for spreadsheets');

    expect(await safe.isChecked()).toBe(false);
    expect(emailCells(await exportedLines(page))).toEqual([plain, '+sum@example.com', '=1+1@example.com']);

    await safe.check();
    await expectAccessible(page, 'the list with the spreadsheet option ticked');
    const escaped = await exportedLines(page);

    expect(escaped[0]).toBe('id,email,origin,source_id,created_at,scope');
    expect(emailCells(escaped)).toEqual([plain, `"'+sum@example.com"`, `"'=1+1@example.com"`]);
  });
});
