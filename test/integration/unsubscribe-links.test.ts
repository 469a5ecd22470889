import { describe, expect, it } from 'vitest';
import { createWebhook } from '../../src/webhooks/webhook-repository.js';
import { newKey } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';

const app = useTestApp({ env: { PUBLIC_BASE_URL: 'https://mail.example.com/' } });
const local = useTestApp();
const limited = useTestApp({ redis: 'live', authFailuresPerSecond: 3 });

const ONE_CLICK = 'List-Unsubscribe=One-Click';

/** The link of one address, asked for with a sending key as a mail system would. */
async function linkFor(owner: ApiAccount, email: string, scope?: string): Promise<string> {
  const key = await newKey(app.database.db, owner.account, 'sending_access');
  const answer = await apiClient(app.server.url, key.token).post('/unsubscribe-links', {
    emails: [email],
    ...(scope && { scope }),
  });
  expect(answer.status).toBe(200);
  return answer.body.data[0].url as string;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The token with the bits of its last character that decoding drops (4 of them after 2 leftover
 * bytes, 2 after 1) all set: the same bytes, spelt otherwise.
 */
function otherSpelling(token: string): string {
  const dropped = { 2: 0b1111, 3: 0b11 }[token.length % 4];
  if (dropped === undefined) throw new Error(`a token of ${token.length} characters has no unused bits`);
  return token.slice(0, -1) + BASE64URL[BASE64URL.indexOf(token.at(-1) as string) | dropped];
}

/** The link's path on the file's server (the links name the public address). */
const pathOf = (url: string): string => new URL(url).pathname;

async function postOneClick(path: string, body: string = ONE_CLICK, type = 'application/x-www-form-urlencoded') {
  const response = await fetch(`${app.server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: response.status, text: await response.text() };
}

async function stopped(api: ApiClient, email: string, scope?: string): Promise<boolean> {
  const answer = await api.post('/suppressions/check', { emails: [email], ...(scope && { scope }) });
  return answer.body.suppressed.length === 1;
}

describe('asking for the headers', () => {
  it('when a sending key asks for links, then each valid address gets the two headers of RFC 8058 on the public address, and bad items are named', async () => {
    const owner = await newApiAccount(app);
    const key = await newKey(app.database.db, owner.account, 'sending_access');
    const reader = uniqueEmail();

    const answer = await apiClient(app.server.url, key.token).post('/unsubscribe-links', {
      emails: [reader.toUpperCase(), 'not-an-address', reader],
      scope: 'newsletter',
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'unsubscribe_links', scope: 'newsletter' });
    expect(answer.body.invalid).toEqual([
      { index: 1, email: 'not-an-address', reason: 'is not a valid email address' },
    ]);
    const [link] = answer.body.data;
    expect(answer.body.data).toHaveLength(1);
    expect(link.email).toBe(reader);
    expect(link.url).toMatch(/^https:\/\/mail\.example\.com\/unsubscribe\/[A-Za-z0-9_-]+$/);
    expect(link.list_unsubscribe).toBe(`<${link.url}>`);
    expect(link.list_unsubscribe_post).toBe(ONE_CLICK);
    // Sealed: neither the address nor the scope can be read from the link.
    const token = link.url.split('/').at(-1) as string;
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain(reader.split('@')[0]);
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('newsletter');
  });

  it('when no public address is configured, then the links name the address the request came to', async () => {
    const owner = await newApiAccount(local);
    const answer = await owner.api.post('/unsubscribe-links', { emails: [uniqueEmail()] });
    expect(answer.body.data[0].url.startsWith(`${local.server.url}/unsubscribe/`)).toBe(true);
  });

  it('when the scope or the list is not right, then it answers 422', async () => {
    const owner = await newApiAccount(app);
    expectError(await owner.api.post('/unsubscribe-links', { emails: [] }), 422, 'validation_error');
    expectError(
      await owner.api.post('/unsubscribe-links', { emails: ['a@example.com'], scope: 'News' }),
      422,
      'validation_error',
    );
  });
});

describe('following a link', () => {
  it('when the link is opened, then the page offers one button and changes nothing', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    const url = await linkFor(owner, reader, 'newsletter');

    const page = await fetch(`${app.server.url}${pathOf(url)}`);
    const html = await page.text();

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('<form method="post">');
    expect(html).toContain(reader);
    expect(await stopped(owner.api, reader, 'newsletter')).toBe(false);
  });

  it('when the one-click POST comes, then the address is unsubscribed from that scope only, by the link, and it is announced', async () => {
    const owner = await newApiAccount(app);
    await createWebhook(app.database.db, {
      accountId: owner.accountId,
      endpoint: 'http://127.0.0.1:9/hook',
      events: ['suppression.added'],
    });
    const reader = uniqueEmail();
    const url = await linkFor(owner, reader, 'newsletter');

    const first = await postOneClick(pathOf(url));
    const again = await postOneClick(pathOf(url));

    expect(first).toEqual({ status: 200, text: JSON.stringify({ object: 'unsubscribe', unsubscribed: true }) });
    expect(again.status).toBe(200);
    expect(await stopped(owner.api, reader, 'newsletter')).toBe(true);
    expect(await stopped(owner.api, reader)).toBe(false);
    const entry = await owner.api.get(`/suppressions/${encodeURIComponent(reader)}?scope=newsletter`);
    expect(entry.body).toMatchObject({ origin: 'unsubscribe', scope: 'newsletter' });
    const history = await owner.api.get(`/suppressions/${encodeURIComponent(reader)}/events`);
    expect(history.body.data).toEqual([
      expect.objectContaining({ type: 'addition', actor: { type: 'unsubscribe_link', id: null } }),
    ]);
    const { rows } = await app.database.db.query({
      text: `SELECT type, scope FROM suppression_changes WHERE account_id = $1`,
      values: [owner.accountId],
    });
    expect(rows).toEqual([{ type: 'suppression.added', scope: 'newsletter' }]);
    const page = await (await fetch(`${app.server.url}${pathOf(url)}`)).text();
    expect(page).toContain('You are unsubscribed');
  });

  it('when the button of the page is pressed, then the browser gets a page saying it is done', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    const url = await linkFor(owner, reader);

    const response = await fetch(`${app.server.url}${pathOf(url)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: 'List-Unsubscribe=One-Click',
    });

    expect(response.status).toBe(200);
    expect(await response.text()).toContain('You are unsubscribed');
    expect(await stopped(owner.api, reader)).toBe(true);
  });

  it('when the one-click POST is multipart, then it is taken as well', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    const url = await linkFor(owner, reader);
    const body = '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n';

    expect((await postOneClick(pathOf(url), body, 'multipart/form-data; boundary=b')).status).toBe(200);
    expect(await stopped(owner.api, reader)).toBe(true);
  });

  it('when the POST does not say One-Click, then it answers 422 and writes nothing', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    const url = await linkFor(owner, reader);

    expect((await postOneClick(pathOf(url), '')).status).toBe(422);
    expect(await stopped(owner.api, reader)).toBe(false);
  });
});

describe('links that are not valid', () => {
  it('when a link is altered, or moved to another account, then it answers 404 and writes nothing', async () => {
    const owner = await newApiAccount(app);
    const other = await newApiAccount(app);
    const reader = uniqueEmail();
    const path = pathOf(await linkFor(owner, reader));
    const token = path.split('/').at(-1) as string;
    const bytes = Buffer.from(token, 'base64url');
    const altered = Buffer.from(bytes);
    altered[altered.length - 1] = (altered[altered.length - 1] as number) ^ 1;
    const moved = Buffer.from(bytes);
    Buffer.from(other.accountId.replace(/-/g, ''), 'hex').copy(moved, 1);
    await apiClient(app.server.url, other.token).post('/unsubscribe-links', { emails: [reader] });

    for (const forged of [altered, moved]) {
      const forgedPath = `/unsubscribe/${forged.toString('base64url')}`;
      expect((await postOneClick(forgedPath)).status).toBe(404);
      expect((await fetch(`${app.server.url}${forgedPath}`)).status).toBe(404);
    }
    expect((await postOneClick('/unsubscribe/not-a-token')).status).toBe(404);
    expect(await stopped(owner.api, reader)).toBe(false);
    expect(await stopped(other.api, reader)).toBe(false);
  });

  it('when a link is spelt with other unused bits in its last character, then the page and the one-click POST answer 404 and write nothing, and the link as made answers 200', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    const path = pathOf(await linkFor(owner, reader));
    const token = path.split('/').at(-1) as string;
    const alternate = `/unsubscribe/${otherSpelling(token)}`;
    expect(Buffer.from(otherSpelling(token), 'base64url')).toEqual(Buffer.from(token, 'base64url'));

    expect((await fetch(`${app.server.url}${alternate}`)).status).toBe(404);
    expect((await postOneClick(alternate)).status).toBe(404);
    expect(await stopped(owner.api, reader)).toBe(false);
    expect((await fetch(`${app.server.url}${path}`)).status).toBe(200);
    expect((await postOneClick(path)).status).toBe(200);
    expect(await stopped(owner.api, reader)).toBe(true);
  });

  it('when the account rotates its secret, then its earlier links answer 404, and new ones work', async () => {
    const owner = await newApiAccount(app);
    const reader = uniqueEmail();
    const before = pathOf(await linkFor(owner, reader));

    expect((await owner.api.post('/unsubscribe-links/secret/rotate', {})).body).toEqual({
      object: 'unsubscribe_secret',
      rotated: true,
    });

    expect((await postOneClick(before)).status).toBe(404);
    expect((await postOneClick(pathOf(await linkFor(owner, reader)))).status).toBe(200);
  });

  it('when a sending key asks to rotate the secret, then it answers 401 restricted_api_key', async () => {
    const owner = await newApiAccount(app);
    const key = await newKey(app.database.db, owner.account, 'sending_access');
    expectError(
      await apiClient(app.server.url, key.token).post('/unsubscribe-links/secret/rotate', {}),
      401,
      'restricted_api_key',
    );
  });
});

describe('guessing links', () => {
  it('when a client sends links that are not valid, then after a few a second it is refused with 429 before any lookup', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const token = Buffer.alloc(64, attempt).toString('base64url');
      const response = await fetch(`${limited.server.url}/unsubscribe/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: ONE_CLICK,
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 3)).toEqual([404, 404, 404]);
    expect(statuses.at(-1)).toBe(429);
  });
});
