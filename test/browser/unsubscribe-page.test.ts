import { describe, expect, it } from 'vitest';
import { expectAccessible, useBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp();
const browser = useBrowser();

describe('the unsubscribe page', () => {
  it('when a recipient opens the link and presses the button, then the page says it is done, and the address is unsubscribed from that scope', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    const links = await owner.api.post('/unsubscribe-links', { emails: [reader], scope: 'newsletter' });
    const { page } = await browser.open();

    await page.goto(links.body.data[0].url);
    await page.getByRole('heading', { name: 'Unsubscribe?' }).waitFor();
    const asked = `${reader} will no longer receive “newsletter” mail from this sender.`;
    expect(await page.getByText(asked).count()).toBe(1);
    // The page's own style applies under its policy.
    expect(
      await page
        .locator('button')
        .evaluate((button) => button.ownerDocument.defaultView?.getComputedStyle(button).backgroundColor),
    ).toBe('rgb(11, 87, 184)');
    await expectAccessible(page, 'the unsubscribe page');
    expect(
      (await owner.api.post('/suppressions/check', { emails: [reader], scope: 'newsletter' })).body.suppressed,
    ).toEqual([]);

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    await expectAccessible(page, 'the page after unsubscribing');

    const check = await owner.api.post('/suppressions/check', { emails: [reader], scope: 'newsletter' });
    expect(check.body.suppressed).toEqual([expect.objectContaining({ origin: 'unsubscribe', scope: 'newsletter' })]);
  });

  it('when the link is not valid, then the page says so and offers nothing', async () => {
    const { page } = await browser.open();
    const response = await page.goto(`${app.server.url}/unsubscribe/${Buffer.alloc(64, 7).toString('base64url')}`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    expect(await page.locator('form').count()).toBe(0);
  });
});
