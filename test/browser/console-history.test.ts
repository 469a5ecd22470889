import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import { createReclassification } from '../../src/bounces/reclassification-repository.js';
import { runReclassification } from '../../src/bounces/reclassify.js';
import { newId } from '../../src/domain/ids.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { apiClient } from '../support/api-client.js';
import { expectAccessible, screenshot, useBrowser } from '../support/browser.js';
import { useTestApp } from '../support/test-app.js';
import { accountNamed, bounceWith, recordEvents, signInToConsole, type ConsoleAccount } from './console-fixtures.js';

const app = useTestApp({ redis: 'live', console: { dir: inject('consoleDir') } });
const browser = useBrowser();

/** Refused because of the sender: recorded, and under the default settings never put on the list. */
const BLOCKED = 'blocked@example.org';
/** Put on the list by a bounce read on its label alone, then lifted by a reclassification. */
const LIFTED = 'lifted@example.org';
/** On the list in one scope only, with a full mailbox that counted but did not suppress. */
const SCOPED = 'scoped@example.org';

let acme: ConsoleAccount;

beforeAll(async () => {
  const { db } = app.database;
  acme = await accountNamed(db, 'acme');
  await recordEvents(
    db,
    bounceWith(acme.accountId, BLOCKED, {
      status: '5.7.1',
      diagnostic: 'smtp; 550 5.7.1 Client host [203.0.113.7] blocked using zen.spamhaus.org',
      occurredAt: '2026-11-24T10:15:00.000Z',
    }),
    bounceWith(acme.accountId, SCOPED, {
      type: 'transient',
      status: '4.2.2',
      diagnostic: 'smtp; 452 4.2.2 mailbox full',
      occurredAt: '2026-11-24T11:00:00.000Z',
    }),
  );
  await apiClient(app.server.url, acme.token).post('/suppressions', { email: SCOPED, scope: 'newsletter' });

  // Recorded before bounces were classified: suppressed on the label `permanent`.
  const [entry] = await addSuppressions(db, acme.accountId, [
    { id: newId(), email: LIFTED, origin: 'bounce', sourceId: randomUUID() },
  ]);
  await db.query({
    text: `INSERT INTO suppression_events (account_id, event_id, type, email, source_id, bounce_type, bounce_status,
             bounce_diagnostic, suppression_id, outcome, occurred_at, received_at)
           VALUES ($1, $2, 'bounce', $3, $4, 'permanent', '5.7.1', $5, $6, 'suppressed', now() - interval '2 days',
             now() - interval '2 days')`,
    values: [
      acme.accountId,
      `evt-${randomUUID()}`,
      LIFTED,
      randomUUID(),
      'smtp; 550 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org',
      entry!.id,
    ],
  });
  const run = await createReclassification(db, {
    id: newId(),
    accountId: acme.accountId,
    dryRun: false,
    classifierVersion: CLASSIFIER_VERSION,
  });
  await runReclassification(db, run.id);
});

/** Searches as a person does, and waits until the list and the history have loaded. */
async function search(page: Page, text: string): Promise<void> {
  await page.getByLabel('Search', { exact: true }).fill(text);
  await page.getByLabel('Search', { exact: true }).press('Enter');
  await page.waitForURL((url) => url.searchParams.get('q') === text);
  await page.locator('.list[aria-busy="false"]').waitFor();
}

/** The history's rows under the list, each as its cells' texts. */
async function historyRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('region', { name: /^History of / }).locator('table.history tbody tr');
  const texts: string[][] = [];
  for (const row of await rows.all()) texts.push(await row.getByRole('cell').allInnerTexts());
  return texts;
}

describe('searching an address that is not on the list', () => {
  it('when an address whose bounce was recorded but not suppressed is searched, then its history says so and links to its page', async () => {
    const { page } = await browser.open();
    await signInToConsole(page, app.server.url, acme.token);

    await search(page, BLOCKED);

    const history = page.getByRole('region', { name: `History of ${BLOCKED}` });
    expect(await history.getByText('It is not on the suppression list.').count()).toBe(1);
    expect(await page.getByText('Nothing matches').count()).toBe(0);
    const [bounce] = await historyRows(page);
    expect(bounce![0]).toBe('Bounce');
    expect(bounce![3]).toContain('Sender blocked');
    expect(bounce![4]).toBe('Not added');
    await expectAccessible(page, 'the history of an address off the list');
    await screenshot(page, 'search-history', { fullPage: true });

    await history.getByRole('link', { name: 'Open the address’s page' }).click();
    await page.getByRole('heading', { name: BLOCKED, level: 1 }).waitFor();
    await page.getByText('This address is not on the suppression list now.').waitFor();
  });

  it('when an address that was lifted, one listed in a scope only, and one never seen are searched, then each shows what became of it', async () => {
    const { page } = await browser.open();
    await signInToConsole(page, app.server.url, acme.token);

    await search(page, LIFTED);
    expect(await historyRows(page)).toEqual([
      [
        'Removal',
        expect.any(String),
        '—',
        'Lifted: reclassified bounces no longer suppress it',
        'Removed from the list',
      ],
      ['Bounce', expect.any(String), '5.7.1', expect.stringContaining('Not classified'), 'Added to the list'],
    ]);
    expect(await page.getByText('It is not on the suppression list.').count()).toBe(1);

    await search(page, SCOPED);
    expect(await page.locator('.list td.email').allInnerTexts()).toEqual([SCOPED]);
    const history = page.getByRole('region', { name: `History of ${SCOPED}` });
    expect(await history.innerText()).toContain('Its entries are above.');
    expect((await historyRows(page)).map((row) => [row[0], row[4]])).toEqual([
      ['Added', 'Added to the list'],
      ['Bounce', 'Not added'],
    ]);

    await search(page, 'nobody@example.org');
    await page.getByText('The service has no entry and no record of this address').waitFor();
    expect(await page.getByRole('region', { name: /^History of / }).count()).toBe(0);

    await search(page, 'lifted*');
    await page.getByText('Search a whole address to see its history too').waitFor();
    await expectAccessible(page, 'a prefix that matches nothing');
  });
});
