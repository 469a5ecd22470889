import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import { expectAccessible, screenshot, useBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/emails.js';
import { useTestApp } from '../support/test-app.js';
import {
  accountNamed,
  forgetClassification,
  recordBouncesAgo,
  type BounceAgo,
  type ConsoleAccount,
} from './console-fixtures.js';

const app = useTestApp({ redis: 'live', console: { dir: inject('consoleDir') } });
const browser = useBrowser();

/** What a bounce of each category says, as a receiving server words it: the service classifies them. */
const SAYS = {
  sender_blocked: [
    { status: '5.7.1', diagnostic: 'smtp; 550 5.7.1 Client host [203.0.113.7] blocked using zen.spamhaus.org' },
    {
      status: '5.7.26',
      diagnostic: 'smtp; 550 5.7.26 Unauthenticated email from example.com is not accepted due to its DMARC policy',
    },
    { status: '4.7.0', diagnostic: 'smtp; 421 4.7.0 Too many messages from your IP, try again later' },
  ],
  invalid_address: [
    { status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 The email account that you tried to reach does not exist' },
    { status: '5.1.2', diagnostic: 'smtp; 550 5.1.2 Host unknown: domain name not found' },
  ],
  mailbox_unavailable: [{ status: '4.2.2', diagnostic: 'smtp; 452 4.2.2 mailbox full', type: 'transient' as const }],
  delivery_failure: [
    { status: '4.4.1', diagnostic: 'smtp; 421 4.4.1 connection timed out', type: 'transient' as const },
    {
      status: '4.4.7',
      diagnostic: 'smtp; 421 4.4.7 Message expired: delivery time expired',
      type: 'transient' as const,
    },
  ],
  auto_reply: [
    { status: '', diagnostic: 'Automatic reply: I am out of the office until Monday', type: 'transient' as const },
  ],
  unknown: [{ status: '', diagnostic: 'Delivery failed', type: 'undetermined' as const }],
};
type Category = keyof typeof SAYS;

/** Bounces a day of the last week, today first: a block listing that started three days ago. */
const WEEK: Record<Category, number[]> = {
  sender_blocked: [9, 14, 6, 3, 2, 1, 1],
  invalid_address: [3, 4, 2, 3, 4, 2, 3],
  mailbox_unavailable: [1, 2, 1, 1, 0, 2, 1],
  delivery_failure: [1, 0, 2, 0, 1, 0, 1],
  auto_reply: [1, 1, 0, 1, 1, 1, 0],
  unknown: [0, 1, 0, 1, 0, 0, 1],
};
const sum = (counts: readonly number[]) => counts.reduce((total, count) => total + count, 0);
const WEEK_TOTAL = sum(Object.values(WEEK).map(sum));
const TODAY_TOTAL = sum(Object.values(WEEK).map((counts) => counts[0]!));
const BLOCKING_DOMAINS = ['gmail.com', 'gmail.com', 'outlook.com', 'gmail.com', 'yahoo.com', 'icloud.com'];

/** The week's bounces, with addresses of their own: the sender-blocked ones mostly at gmail.com. */
function weekOfBounces(): BounceAgo[] {
  const bounces: BounceAgo[] = [];
  let n = 0;
  for (const [category, counts] of Object.entries(WEEK) as [Category, number[]][]) {
    counts.forEach((count, day) => {
      for (let i = 0; i < count; i++, n++) {
        const says = SAYS[category][n % SAYS[category].length]!;
        const domain =
          category === 'sender_blocked' ? BLOCKING_DOMAINS[n % BLOCKING_DOMAINS.length]! : `example${n % 4}.com`;
        bounces.push({ email: `user${n}@${domain}`, ...says, daysAgo: day + 0.1 + (i % 5) * 0.01 });
      }
    });
  }
  return bounces;
}

/** The account of the screenshots; its entry has three bounces, the oldest from before classification. */
let acme: ConsoleAccount;
const BOUNCED = 'jane.doe@example.com';

beforeAll(async () => {
  const { db } = app.database;
  acme = await accountNamed(db, 'acme');
  await recordBouncesAgo(db, acme.accountId, weekOfBounces());
  await recordBouncesAgo(db, acme.accountId, [
    { email: BOUNCED, type: 'transient', status: '4.2.2', diagnostic: 'smtp; 452 4.2.2 mailbox full', daysAgo: 40 },
  ]);
  await forgetClassification(db, acme.accountId, BOUNCED);
  await recordBouncesAgo(db, acme.accountId, [
    { email: BOUNCED, ...SAYS.sender_blocked[0]!, daysAgo: 12 },
    { email: BOUNCED, ...SAYS.invalid_address[0]!, daysAgo: 10 },
  ]);
});

function consoleUrl(path = ''): string {
  return `${app.server.url}/console${path}`;
}

/** Signs in through the page, and waits for the list. */
async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(consoleUrl());
  await page.getByLabel('API key').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Suppressed addresses' }).waitFor();
  await page.locator('.list[aria-busy="false"]').waitFor();
}

/** Opens a page of the navigation, and waits until it has loaded. */
async function openFromNavigation(page: Page, name: 'Bounces' | 'Settings'): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
  await page.locator(name === 'Bounces' ? '.bounces[aria-busy="false"]' : 'form.settings').waitFor();
}

/** An expression evaluated in the page (a string: the tests are not typed against the DOM). */
function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate<T>(expression);
}

/** A row of the "By category" table, as its cells' texts. */
async function categoryRow(page: Page, label: string): Promise<string[]> {
  const section = page.getByRole('region', { name: 'By category', exact: true });
  return section.getByRole('row').filter({ hasText: label }).getByRole('cell').allInnerTexts();
}

describe('settings', () => {
  it('when sender_blocked is changed to count and saved, then one PATCH carries only that change, and the API reports it', async () => {
    const account = await accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
    const { page } = await browser.open();
    await signIn(page, account.token);
    await openFromNavigation(page, 'Settings');
    const select = page.getByLabel('Sender blocked');
    expect(await select.inputValue()).toBe('record');
    expect(await page.getByRole('group', { name: 'Bounce actions' }).isVisible()).toBe(true);
    expect(await select.locator('option:checked').innerText()).toBe('Record only (default)');
    expect(await page.locator('#action-sender_blocked-hint').innerText()).toContain('block list');
    const patches: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.postDataJSON());
    });

    await select.selectOption('count');
    await page.getByRole('button', { name: 'Save' }).click();

    await page.getByRole('status').filter({ hasText: 'Saved. Sender blocked: count.' }).waitFor();
    expect(patches).toEqual([{ bounce_actions: { sender_blocked: 'count' } }]);
    const settings = await apiClient(app.server.url, account.token).get('/settings/suppressions');
    expect(settings.body.bounce_actions).toMatchObject({ sender_blocked: 'count', invalid_address: 'suppress' });
    await page.reload();
    await page.locator('form.settings').waitFor();
    expect(await page.getByLabel('Sender blocked').inputValue()).toBe('count');
    await expectAccessible(page, 'the settings');
  });

  it('when a value is out of range, then the API’s 422 is shown in words, the field is marked, and nothing changes', async () => {
    const account = await accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
    const { page } = await browser.open();
    await signIn(page, account.token);
    await openFromNavigation(page, 'Settings');

    await page.getByLabel('Bounces that suppress an address').fill('1');
    await page.getByRole('button', { name: 'Save' }).click();

    const alert = page.getByRole('alert').filter({ hasText: 'The settings were not saved' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/soft_bounce_threshold.*from 2 to 100/);
    expect(await page.getByLabel('Bounces that suppress an address').getAttribute('aria-invalid')).toBe('true');
    expect(await inPage(page, 'document.activeElement?.id')).toBe('threshold');
    await expectAccessible(page, 'the settings with an error');

    await page.getByLabel('Bounces that suppress an address').fill('4');
    await page.getByLabel('Bounce entries').fill('90');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Saved. Soft-bounce threshold: 4; bounce entries expire: after 90 days.' })
      .waitFor();
    const settings = await apiClient(app.server.url, account.token).get('/settings/suppressions');
    expect(settings.body).toMatchObject({ soft_bounce_threshold: 4, expire_after_days: { bounce: 90 } });
  });
});

describe('the bounces of a period', () => {
  it('when the page is opened, then the chart shows each seeded category, the totals match, and the callout names the sender as the likely problem', async () => {
    const { page } = await browser.open();
    await signIn(page, acme.token);
    await openFromNavigation(page, 'Bounces');

    expect(await page.getByRole('radio', { name: 'Last 7 days' }).isChecked()).toBe(true);
    expect(await page.locator('.period-total').innerText()).toContain(`${WEEK_TOTAL} bounces`);
    const chart = page.getByRole('img', { name: /Stacked bar chart of bounces a day by category/ });
    expect(await chart.isVisible()).toBe(true);
    for (const category of Object.keys(WEEK)) {
      expect(await chart.locator(`rect.category-fill-${category}`).count(), category).toBeGreaterThan(0);
    }
    expect(await chart.locator('rect.category-fill-sender_blocked title').first().textContent()).toMatch(
      /^\d+ \w{3}: Sender blocked, \d+$/,
    );
    expect(await categoryRow(page, 'Sender blocked')).toEqual([`${sum(WEEK.sender_blocked)}`, '46%', 'record only']);
    expect(await categoryRow(page, 'Invalid address')).toEqual([`${sum(WEEK.invalid_address)}`, '27%', 'suppress']);

    const callout = page.getByRole('region', { name: /of these bounces were refused because of the sender/ });
    expect(await callout.innerText()).toContain('most likely a problem with your sending, not with these addresses');
    expect(await callout.getByRole('list').getByRole('listitem').allInnerTexts()).toEqual([
      `${sum(WEEK.sender_blocked)} left their address off the list`,
    ]);
    const domains = page.getByRole('region', { name: 'Domains that refused the sender' });
    expect(await domains.getByRole('row').nth(1).innerText()).toMatch(/^gmail\.com\s+\d+$/);
    const reasons = page.getByRole('region', { name: 'Top reasons' });
    expect(await reasons.innerText()).toContain('Sender on a block list');

    await page.getByText('The numbers by day').click();
    const numbers = page.getByRole('region', { name: 'Bounces by day and category' });
    const totals = await numbers.locator('tbody tr td:last-child').allInnerTexts();
    expect(sum(totals.map(Number))).toBe(WEEK_TOTAL);
    await expectAccessible(page, 'the bounces of a week');
  });

  it('when another period is chosen, then the address keeps it and the totals are of that period', async () => {
    const { page } = await browser.open();
    await signIn(page, acme.token);
    await openFromNavigation(page, 'Bounces');

    await page.getByRole('radio', { name: 'Last 24 hours' }).check();
    await page
      .locator('.period-total')
      .filter({ hasText: `${TODAY_TOTAL} bounces` })
      .waitFor();
    expect(page.url()).toContain('period=24h');
    await page.getByRole('radio', { name: 'Last 30 days' }).check();
    // The entry's bounces of 10 and 12 days ago count too; the one of 40 days ago does not.
    await page
      .locator('.period-total')
      .filter({ hasText: `${WEEK_TOTAL + 2} bounces` })
      .waitFor();
    await page.goBack();
    await page
      .locator('.period-total')
      .filter({ hasText: `${TODAY_TOTAL} bounces` })
      .waitFor();
  });

  it('when block-list bounces suppressed under a policy since changed to record only, then the callout says what they did, and the policy now apart', async () => {
    const account = await accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
    const api = apiClient(app.server.url, account.token);
    const blocked = (daysAgo: number, n: number) =>
      Array.from({ length: n }, () => ({ email: uniqueEmail(), ...SAYS.sender_blocked[0]!, daysAgo }));
    await api.request('PATCH', '/settings/suppressions', { body: { bounce_actions: { sender_blocked: 'suppress' } } });
    await recordBouncesAgo(app.database.db, account.accountId, blocked(3, 4));
    await api.request('PATCH', '/settings/suppressions', { body: { bounce_actions: { sender_blocked: 'record' } } });
    await recordBouncesAgo(app.database.db, account.accountId, [
      ...blocked(1, 1),
      { email: uniqueEmail(), ...SAYS.invalid_address[0]!, daysAgo: 1 },
    ]);
    const { page } = await browser.open();
    await signIn(page, account.token);

    await openFromNavigation(page, 'Bounces');

    const callout = page.getByRole('region', { name: /of these bounces were refused because of the sender/ });
    expect(await callout.getByRole('list').getByRole('listitem').allInnerTexts()).toEqual([
      '4 put their address on the list: review the bounce entries',
      '1 left its address off the list',
    ]);
    expect(await callout.innerText()).toContain(
      'Bounces of this kind are set to record only now; each bounce was handled by the setting of its day.',
    );
    expect(await callout.innerText()).not.toContain('were not put on the list');
    await callout.getByRole('link', { name: 'review the bounce entries' }).click();
    await page.waitForURL(/origin=bounce/);
    await page.locator('.list[aria-busy="false"]').waitFor();
    expect(await page.locator('.list td.email').count()).toBe(5);
  });

  it('when an account has no bounces, then the page says so', async () => {
    const account = await accountNamed(app.database.db, `account-${uniqueEmail().split('@')[0]}`);
    const { page } = await browser.open();
    await signIn(page, account.token);
    await openFromNavigation(page, 'Bounces');

    await page.getByText('No bounces in the last 7 days').waitFor();
    expect(await page.getByRole('img').count()).toBe(0);
    await expectAccessible(page, 'no bounces');
  });
});

describe('an entry’s classified bounces', () => {
  it('when a bounced address is opened, then each bounce shows its category, reason, rule and classifier version, or "Not classified"', async () => {
    const { page } = await browser.open();
    await signIn(page, acme.token);
    await page.goto(consoleUrl(`/?q=${BOUNCED}`));
    await page.getByRole('link', { name: BOUNCED }).click();
    // The search shows the address's history too: the entry's own page is the one of its heading.
    await page.getByRole('heading', { name: BOUNCED, level: 1 }).waitFor();
    const rows = page.locator('table.history tbody tr');
    await rows.first().waitFor();

    expect(await rows.count()).toBe(3);
    expect(await rows.nth(0).locator('.classification').innerText()).toMatch(
      /^Invalid address User unknown\s+rule text:does not exist · classifier 1\.[0-9a-f]{8}$/,
    );
    expect(await rows.nth(1).locator('.classification').innerText()).toMatch(/^Sender blocked Sender on a block list/);
    expect(await rows.nth(1).locator('.classification code').innerText()).toBe('text:client host ... blocked');
    expect(await rows.nth(2).locator('.classification').innerText()).toContain('Not classified');
    await expectAccessible(page, 'an entry with classified bounces');
  });
});

describe('a narrow window', () => {
  it('when the bounces and the settings are opened 360 px wide, then nothing scrolls sideways', async () => {
    const { page } = await browser.open({ viewport: { width: 360, height: 740 } });
    await signIn(page, acme.token);

    await openFromNavigation(page, 'Bounces');
    expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect((await page.getByRole('img', { name: /Stacked bar chart/ }).boundingBox())!.width).toBeLessThanOrEqual(320);
    await expectAccessible(page, 'the bounces at 360 px');

    await openFromNavigation(page, 'Settings');
    expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await expectAccessible(page, 'the settings at 360 px');
  });
});

describe('screenshots for docs/console.md', () => {
  it('when the bounces and the settings are opened with the seeded week, then their screenshots are written', async () => {
    const { page } = await browser.open();
    await signIn(page, acme.token);

    await openFromNavigation(page, 'Bounces');
    await page.getByRole('img', { name: /Stacked bar chart/ }).waitFor();
    await screenshot(page, 'bounces', { fullPage: true });

    await openFromNavigation(page, 'Settings');
    await page.getByLabel('Window, in days').fill('90');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expectAccessible(page, 'the settings, saved');
    await screenshot(page, 'settings', { fullPage: true });
  });
});
