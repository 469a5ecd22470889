import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newKey } from '../support/accounts.js';
import { apiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { captureLogs } from '../support/log-capture.js';
import { sharedBuild } from '../support/shared-build.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const logs = captureLogs('trace');
// Without PUBLIC_BASE_URL, as outside production: links come from the request's own address.
const app = useTestApp({ logger: logs.logger });

/** Starts a built entry point and resolves with its exit code and what it wrote to stderr. */
async function startRefused(
  entry: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const dir = await sharedBuild();
  const child = spawn(process.execPath, [join(dir, entry[0]!), ...entry.slice(1)], {
    // A database no one listens on: a start that got past the check would fail differently, later.
    env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stderr };
}

describe('production refuses to start unsafe', () => {
  it.each([
    [['cli/main.js', 'start'], {}, ['PUBLIC_BASE_URL must be set', 'METRICS_TOKEN must be set']],
    [
      ['api/main.js'],
      { METRICS_TOKEN: 'short', ADMIN_TOKEN: 'x' },
      ['METRICS_TOKEN must be at least 32', 'ADMIN_TOKEN must be at least 32'],
    ],
    [
      ['workers/main.js'],
      { METRICS_TOKEN: 'm'.repeat(32), WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true' },
      ['WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS must not be true', 'PUBLIC_BASE_URL must be set'],
    ],
  ])(
    'when %j starts with NODE_ENV=production and %j, then it exits 1 naming each variable at fault',
    async (entry, env, named) => {
      const { code, stderr } = await startRefused(entry, { NODE_ENV: 'production', ...env });
      expect(code).toBe(1);
      for (const text of named) expect(stderr).toContain(text);
    },
  );
});

/** POST /unsubscribe-links with the `Host` header given, as a raw request (fetch sets its own). */
function linksWithHost(token: string, host: string): Promise<{ status: number; body: any }> {
  const url = new URL(app.server.url);
  const body = JSON.stringify({ emails: [uniqueEmail()] });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: '/unsubscribe-links',
        method: 'POST',
        headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('links built from a request’s Host header, outside production', () => {
  it('when the Host header carries more than a host and a port, then no link is built from it (422), and a plain one still works', async () => {
    const owner = await newApiAccount(app);
    const key = await newKey(app.database.db, owner.account, 'sending_access');
    const injected = await linksWithHost(key.token, 'a>, <https://evil.example/');
    expect(injected.status).toBe(422);
    expect(injected.body.message).toContain('PUBLIC_BASE_URL');
    const plain = await linksWithHost(key.token, 'mail.example.com:8080');
    expect(plain.status).toBe(200);
    expect(plain.body.data[0].list_unsubscribe).toMatch(/^<http:\/\/mail\.example\.com:8080\/unsubscribe\/[^>,\s]+>$/);
  });
});

describe('credentials in paths never reach the log', () => {
  it('when a recipient opens and posts an unsubscribe link, then no log line at any level holds its token, and the request line names the route pattern', async () => {
    const owner = await newApiAccount(app);
    const answer = await apiClient(app.server.url, owner.token).post('/unsubscribe-links', {
      emails: [uniqueEmail()],
    });
    const url = answer.body.data[0].url as string;
    const token = url.slice(url.lastIndexOf('/') + 1);
    const before = logs.lines.length;

    const page = await fetch(`${app.server.url}/unsubscribe/${token}?utm_source=${token}`);
    const oneClick = await fetch(`${app.server.url}/unsubscribe/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    const unknown = await fetch(`${app.server.url}/unsubscribe/${token}x/extra`);

    expect([page.status, oneClick.status, unknown.status]).toEqual([200, 200, 404]);
    const written = logs.lines.slice(before);
    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(written.filter((line) => line.includes(token.slice(0, 16)))).toEqual([]);
    expect(written.some((line) => line.includes('"route":"/unsubscribe/:token"'))).toBe(true);
  });
});
