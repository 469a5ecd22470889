import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newApiAccount, useTestApp } from '../support/test-app.js';
import { uniqueEmail } from '../support/emails.js';

const ADMIN_TOKEN = 'admin-secret-0123456789';
const METRICS_TOKEN = 'metrics-secret-0123456789';

/** A console build of one page: enough for `/console` to be served as the built console is. */
const consoleDir = mkdtempSync(path.join(tmpdir(), 'sl-powered-by-'));
writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

const app = useTestApp({
  redis: 'live',
  queues: true,
  adminToken: ADMIN_TOKEN,
  metricsToken: METRICS_TOKEN,
  console: { dir: consoleDir },
});

describe('the framework is not named', () => {
  it('when any part of the app answers (API, dashboard, console, unsubscribe page, reference, errors), then no answer carries X-Powered-By', async () => {
    const owner = await newApiAccount(app);
    const link = await owner.api.post('/unsubscribe-links', { emails: [uniqueEmail()] });
    const unsubscribePage = new URL(link.body.data[0].url as string).pathname;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const requests: { path: string; headers?: Record<string, string>; status: number }[] = [
      { path: '/suppressions', headers: bearer(owner.token), status: 200 },
      { path: '/suppressions', status: 401 },
      { path: '/admin/queues', headers: bearer(ADMIN_TOKEN), status: 200 },
      { path: '/admin/queues/api/queues', headers: bearer(ADMIN_TOKEN), status: 200 },
      { path: '/admin/queues/api/queues/no-such-queue/no-such-job', headers: bearer(ADMIN_TOKEN), status: 404 },
      { path: '/admin/queues', status: 401 },
      { path: '/console', status: 200 },
      { path: '/console/session', status: 401 },
      { path: unsubscribePage, status: 200 },
      { path: '/docs', status: 200 },
      { path: '/docs/swagger-ui.css', status: 200 },
      { path: '/metrics', headers: bearer(METRICS_TOKEN), status: 200 },
      { path: '/health', status: 200 },
      { path: '/nowhere', status: 404 },
    ];

    for (const { path: at, headers, status } of requests) {
      const response = await fetch(`${app.server.url}${at}`, { headers });
      await response.arrayBuffer();
      expect(response.status, at).toBe(status);
      expect(response.headers.get('x-powered-by'), at).toBeNull();
    }
  });
});
