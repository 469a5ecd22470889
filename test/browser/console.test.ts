import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { revokeApiKey } from '../../src/accounts/api-key-repository.js';
import { apiClient } from '../support/api-client.js';
import { expectAccessible, screenshot, useBrowser } from '../support/browser.js';
import { consoleRequest } from '../support/console-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { useTestApp } from '../support/test-app.js';
import {
  accountNamed,
  addEntries,
  bounceWith,
  pinCreationTimes,
  recordEvents,
  type ConsoleAccount,
} from './console-fixtures.js';

const app = useTestApp({ redis: 'live', console: { dir: inject('consoleDir') } });
const browser = useBrowser();

/** The account of the screenshots: fixed name, addresses and times. */
let acme: ConsoleAccount;
const BOUNCED = 'jane.doe@example.com';

beforeAll(async () => {
  const { db } = app.database;
  acme = await accountNamed(db, 'acme');
  await addEntries(db, acme.accountId, ['carol@example.org', 'dave@example.net', 'erin@shop.example.com']);
  await recordEvents(
    db,
    bounceWith(acme.accountId, BOUNCED, {
      type: 'transient',
      status: '4.2.2',
      diagnostic: 'smtp; 452 4.2.2 mailbox full',
      occurredAt: '2026-11-20T08:14:03.000Z',
      sourceId: '8b3f2a1c-4d5e-4f60-a7b8-c9d0e1f2a3b4',
    }),
  );
  await recordEvents(
    db,
    bounceWith(acme.accountId, BOUNCED, {
      status: '5.1.1',
      diagnostic: 'smtp; 550 5.1.1 The email account that you tried to reach does not exist',
      occurredAt: '2026-11-21T09:30:12.000Z',
      sourceId: '5d1e9f0c-6a4b-4f7e-9c3d-2b8a1e0f4c6d',
    }),
  );
  await addEntries(db, acme.accountId, ['frank@example.com', 'grace@example.org'], 'complaint');
  await addEntries(db, acme.accountId, ['heidi@example.com', 'ivan@example.net']);
  await pinCreationTimes(db, acme.accountId, '2026-11-22T16:45:00.000Z');
});

/** A new account of its own (named for the test) with a key. */
async function freshAccount(): Promise<ConsoleAccount> {
  return accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
}

function consoleUrl(path = ''): string {
  return `${app.server.url}/console${path}`;
}

/** Signs in through the page, and waits for the list. */
async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(consoleUrl());
  await page.getByLabel('API key').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Suppressed addresses' }).waitFor();
  await listShown(page);
}

/** Waits until the list has loaded (rows, or an empty state). */
async function listShown(page: Page): Promise<void> {
  await page.locator('.list[aria-busy="false"]').waitFor();
}

async function emailsShown(page: Page): Promise<string[]> {
  return page.locator('tbody td.email').allInnerTexts();
}

/** Waits until the list shows exactly these addresses (in 10 s at most, then says what it shows). */
async function waitForEmails(page: Page, emails: readonly string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let shown = await emailsShown(page);
  while (JSON.stringify(shown) !== JSON.stringify(emails) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    shown = await emailsShown(page);
  }
  expect(shown).toEqual(emails);
}

/** A page of its own origin on 127.0.0.1, with no policy to stop its script. */
async function serveBlankPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Elsewhere</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An expression evaluated in the page (a string: the tests are not typed against the DOM). */
function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate<T>(expression);
}

/** The account's addresses, newest first, through the bearer API. */
async function listedByApi(token: string, query = ''): Promise<string[]> {
  const response = await apiClient(app.server.url, token).get(`/suppressions?limit=100${query}`);
  return response.body.data.map((entry: { email: string }) => entry.email);
}

describe('signing in', () => {
  it('when the console is opened, then it is served with a strict Content-Security-Policy and no other', async () => {
    const response = await fetch(consoleUrl('/some/client/route'));

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';connect-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'none'",
    );
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${app.server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${app.server.url}/console/assets/missing.js`)).status).toBe(404);
    const bare = await fetch(consoleUrl(), { redirect: 'manual' });
    expect(bare.status).toBe(200);
    expect(bare.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('when a full-access key signs in, then the list shows newest first, and the key is in no cookie', async () => {
    const { page, context } = await browser.open();
    await signIn(page, acme.token);

    expect(await emailsShown(page)).toEqual(await listedByApi(acme.token));
    expect((await emailsShown(page))[0]).toBe('ivan@example.net');
    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({
      name: 'sl_console_session',
      path: '/console',
      httpOnly: true,
      sameSite: 'Strict',
    });
    expect(cookies[0]!.value).not.toContain(acme.token);
    expect(await inPage(page, 'document.cookie')).toBe('');
  });

  it('when a wrong key is given, then the page says in words that it is invalid, and stays on sign-in', async () => {
    const { page } = await browser.open();
    await page.goto(consoleUrl());
    await page.getByLabel('API key').fill('sl_' + 'x'.repeat(43));
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('alert').filter({ hasText: 'API key is invalid.' }).waitFor();
    await expectAccessible(page, 'sign-in with an error');
  });
});

describe('finding addresses', () => {
  it('when an address, a prefix or a domain is searched, then only the matching entries show; otherwise "Nothing matches"', async () => {
    const account = await freshAccount();
    await addEntries(app.database.db, account.accountId, [
      'jane@example.com',
      'jane.smith@example.org',
      'bob@example.org',
      'carol@mail.example.com',
    ]);
    const { page } = await browser.open();
    await signIn(page, account.token);
    const search = async (text: string) => {
      await page.getByLabel('Search', { exact: true }).fill(text);
      await page.getByLabel('Search', { exact: true }).press('Enter');
    };

    await search('Jane@Example.com');
    await waitForEmails(page, ['jane@example.com']);
    await search('jane*');
    await waitForEmails(page, ['jane.smith@example.org', 'jane@example.com']);
    await search('@example.org');
    await waitForEmails(page, ['bob@example.org', 'jane.smith@example.org']);
    await search('mail.example.com');
    await waitForEmails(page, ['carol@mail.example.com']);
    await search('nobody@example.com');
    await page.getByText('Nothing matches').waitFor();
    await expectAccessible(page, 'the list with no match');
    await search('ja*ne');
    await page.getByRole('alert').filter({ hasText: '`email` may contain `*` only as its last character.' }).waitFor();
  });

  it('when there are more than 50 entries, then next and previous walk the pages, and the origin filter keeps to its origin', async () => {
    const account = await freshAccount();
    const manual = uniqueEmails(55);
    const bounced = uniqueEmails(4, 'bounce.example.com');
    await addEntries(app.database.db, account.accountId, bounced, 'bounce');
    await addEntries(app.database.db, account.accountId, manual);
    const all = await (async () => {
      const first = await listedByApi(account.token);
      return first;
    })();
    const { page } = await browser.open();
    await signIn(page, account.token);

    expect(await page.locator('tbody tr').count()).toBe(50);
    expect(await emailsShown(page)).toEqual(all.slice(0, 50));
    expect(await page.getByRole('button', { name: '← Previous' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next →' }).click();
    await waitForEmails(page, all.slice(50));
    expect(await page.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: '← Previous' }).click();
    await waitForEmails(page, all.slice(0, 50));

    await page.getByLabel('Origin').selectOption('bounce');
    await waitForEmails(page, [...bounced].reverse());
    expect(page.url()).toContain('origin=bounce');
    await expectAccessible(page, 'the list filtered by origin');
  });

  it('when an account has no entries, then the list says so and offers to add or import', async () => {
    const account = await freshAccount();
    const { page } = await browser.open();
    await signIn(page, account.token);

    await page.getByText('No suppressed addresses yet').waitFor();
    expect(await page.getByRole('link', { name: 'import a file' }).isVisible()).toBe(true);
    await expectAccessible(page, 'the empty list');
  });
});

describe('an entry and its history', () => {
  it('when a bounced address is opened, then its page shows each bounce with its status code and diagnostic', async () => {
    const { page } = await browser.open();
    await signIn(page, acme.token);
    await page.getByRole('link', { name: BOUNCED }).click();
    await page.getByRole('heading', { name: BOUNCED }).waitFor();

    const rows = page.locator('table.history tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/Bounce[\s\S]*5\.1\.1[\s\S]*Permanent \(general\)[\s\S]*550 5\.1\.1/);
    expect(await rows.nth(0).innerText()).toContain('Added to the list');
    expect(await rows.nth(1).innerText()).toMatch(/4\.2\.2[\s\S]*mailbox full[\s\S]*Not added/);
    expect(await page.locator('dl.fields').innerText()).toMatch(/Origin\s+Bounce/);
  });

  it('when an entry is removed, then Cancel keeps it, and confirming removes it: the API answers 404 and the history names the key', async () => {
    const account = await freshAccount();
    const email = uniqueEmail();
    await recordEvents(
      app.database.db,
      bounceWith(account.accountId, email, {
        status: '5.1.1',
        diagnostic: 'smtp; 550 5.1.1 user unknown',
        occurredAt: '2026-11-21T09:30:12.000Z',
      }),
    );
    const { page } = await browser.open();
    await signIn(page, account.token);
    await page.getByRole('link', { name: email }).click();
    await page.getByRole('heading', { name: email }).waitFor();

    await page.getByRole('button', { name: 'Remove from the list' }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${email}?` });
    await dialog.waitFor();
    expect(await inPage(page, 'document.activeElement?.textContent')).toBe('Cancel');
    await expectAccessible(page, 'the removal dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await listedByApi(account.token)).toEqual([email]);

    await page.getByRole('button', { name: 'Remove from the list' }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Removed ${email} from the list.` })
      .waitFor();
    await page.getByText('No suppressed addresses yet').waitFor();
    const api = apiClient(app.server.url, account.token);
    expect((await api.get(`/suppressions/${email}`)).status).toBe(404);
    const history = await api.get(`/suppressions/${email}/events`);
    expect(history.body.data[0]).toMatchObject({ type: 'removal', removed_by_key_id: account.keyId });
  });

  it('when several entries are selected and removed, then exactly those leave the list', async () => {
    const account = await freshAccount();
    const emails = uniqueEmails(4);
    await addEntries(app.database.db, account.accountId, emails);
    const { page } = await browser.open();
    await signIn(page, account.token);

    await page.getByLabel(`Select ${emails[0]}`).check();
    await page.getByLabel(`Select ${emails[2]}`).check();
    await page.getByRole('button', { name: 'Remove selected (2)' }).click();
    await page.getByRole('dialog', { name: 'Remove 2 addresses?' }).getByRole('button', { name: 'Remove' }).click();

    await page.getByRole('status').filter({ hasText: 'Removed 2 addresses from the list.' }).waitFor();
    await waitForEmails(page, [emails[3]!, emails[1]!]);
    expect(await listedByApi(account.token)).toEqual([emails[3], emails[1]]);
  });
});

describe('adding', () => {
  it('when three lines are added and one is not an address, then two are added and the bad line is named with its number', async () => {
    const account = await freshAccount();
    const [first, second] = uniqueEmails(2);
    const { page } = await browser.open();
    await signIn(page, account.token);
    await page.getByRole('link', { name: 'Add', exact: true }).click();
    await page.getByLabel('Addresses, one a line').fill(`${first}\nnot-an-address\n\n  ${second!.toUpperCase()}  `);
    await page.getByRole('button', { name: 'Add', exact: true }).click();

    await page.getByRole('status').filter({ hasText: 'Added 2 addresses.' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'not added' }).innerText()).toContain(
      'line 2: "not-an-address" is not a valid email address.',
    );
    expect(await page.getByLabel('Addresses, one a line').inputValue()).toBe('not-an-address');
    expect((await listedByApi(account.token)).sort()).toEqual([first, second].sort());
  });
});

describe('exporting', () => {
  it('when the list is exported as CSV, then the file holds every entry of the list, and one origin when filtered', async () => {
    const account = await freshAccount();
    const manual = uniqueEmails(3);
    const complaints = uniqueEmails(2, 'complaints.example.com');
    await addEntries(app.database.db, account.accountId, manual);
    await addEntries(app.database.db, account.accountId, complaints, 'complaint');
    const { page } = await browser.open();
    await signIn(page, account.token);

    const readDownload = async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: /^Export .* as CSV$/ }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('suppressions.csv');
      return readFile(await download.path(), 'utf8');
    };
    const whole = (await readDownload()).trim().split('\n');
    expect(whole[0]).toBe('id,email,origin,source_id,created_at,scope');
    expect(whole.slice(1).map((line) => line.split(',')[1])).toEqual(await emailsShown(page));
    expect(whole).toHaveLength(6);

    await page.getByLabel('Origin').selectOption('complaint');
    await waitForEmails(page, [...complaints].reverse());
    const filtered = (await readDownload()).trim().split('\n');
    expect(filtered.slice(1).map((line) => line.split(',').slice(1, 3).join(','))).toEqual(
      [...complaints].reverse().map((email) => `${email},complaint`),
    );
  });
});

describe('the end of a session', () => {
  it('when the user signs out, then the page shows sign-in and the old cookie is refused', async () => {
    const account = await freshAccount();
    const { page, context } = await browser.open();
    await signIn(page, account.token);
    const [cookie] = await context.cookies();

    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.getByRole('status').filter({ hasText: 'You have signed out.' }).waitFor();
    expect(await page.getByLabel('API key').isVisible()).toBe(true);
    expect(await context.cookies()).toEqual([]);
    const old = await consoleRequest(
      app.server.url,
      `${cookie!.name}=${cookie!.value}`,
      'GET',
      '/console/api/suppressions',
    );
    expect(old.status).toBe(401);
    await page.reload();
    await page.getByLabel('API key').waitFor();
  });

  it("when the session's key is revoked, then the next request sends the page to sign-in with the reason", async () => {
    const account = await freshAccount();
    const { page } = await browser.open();
    await signIn(page, account.token);

    await revokeApiKey(app.database.db, account.keyId);
    await page.getByRole('link', { name: 'Add', exact: true }).click();
    await page.getByLabel('Addresses, one a line').fill(uniqueEmail());
    await page.getByRole('button', { name: 'Add', exact: true }).click();

    await page.getByRole('status').filter({ hasText: 'Sign in to the console' }).waitFor();
    expect(await page.getByLabel('API key').isVisible()).toBe(true);
  });

  it('when a page of another origin posts to the console with the session in the browser, then nothing changes', async () => {
    const account = await freshAccount();
    const email = uniqueEmail();
    await addEntries(app.database.db, account.accountId, [email]);
    const { page } = await browser.open();
    await signIn(page, account.token);
    const target = `${app.server.url}/console/api/suppressions/batch/remove`;

    // A page of another origin on the same site (127.0.0.1, another port): the browser sends the
    // SameSite=Strict cookie along, so only the server's own checks stand in the way.
    const elsewhere = await serveBlankPage();
    try {
      await page.goto(elsewhere.url);
      await inPage(
        page,
        `fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(JSON.stringify({ emails: [email] }))} }).then(() => null)`,
      );
    } finally {
      await elsewhere.close();
    }

    expect(await listedByApi(account.token)).toEqual([email]);
  });
});

describe('a narrow window', () => {
  it('when the list is opened 360 px wide, then every entry is readable without scrolling sideways, and the controls are reachable', async () => {
    const { page } = await browser.open({ viewport: { width: 360, height: 740 } });
    await signIn(page, acme.token);

    expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    for (const cell of await page.locator('tbody td.email a').all()) expect(await cell.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Remove selected' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    await expectAccessible(page, 'the list at 360 px');
  });
});

describe('keyboard use', () => {
  it('when the page is used with the keyboard only, then the skip link, the search and an entry are reached with Tab and Enter', async () => {
    const { page } = await browser.open();
    await signIn(page, acme.token);

    // A page loaded afresh: the first Tab reaches the skip link.
    await page.reload();
    await listShown(page);
    await page.keyboard.press('Tab');
    expect(await inPage(page, 'document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.getByLabel('Search', { exact: true }).focus();
    await page.keyboard.type('@example.org');
    await page.keyboard.press('Enter');
    await waitForEmails(page, ['grace@example.org', 'carol@example.org']);
    await page.getByRole('link', { name: 'grace@example.org' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'grace@example.org' }).waitFor();
    expect(await inPage(page, 'document.activeElement?.tagName')).toBe('H1');
  });
});

describe('screenshots for docs/console.md', () => {
  it('when the main pages are opened with fixed data, then each passes the accessibility check and its screenshot is written', async () => {
    const { page } = await browser.open();
    await page.goto(consoleUrl());
    await page.getByLabel('API key').waitFor();
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in');

    await page.getByLabel('API key').fill(acme.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await listShown(page);
    await page.locator('tbody tr').first().waitFor();
    await page.getByLabel(`Select dave@example.net`).check();
    await expectAccessible(page, 'the list');
    await screenshot(page, 'list');

    await page.getByRole('link', { name: BOUNCED }).click();
    await page.locator('table.history tbody tr').first().waitFor();
    await expectAccessible(page, 'an entry with its history');
    await screenshot(page, 'entry');

    await page.getByRole('link', { name: 'Add', exact: true }).click();
    await page.getByLabel('Addresses, one a line').fill('judy@example.com\nkate@example\nleo@example.org');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Added 2 addresses.' }).waitFor();
    await expectAccessible(page, 'adding, with an error');
    await screenshot(page, 'add');
  });
});
