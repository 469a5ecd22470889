import { describe, expect, it } from 'vitest';
import { BATCHES_QUEUE } from '../../src/queues.js';
import { apiClient, expectError } from '../support/api-client.js';
import { useTestApp } from '../support/test-app.js';

const ADMIN_TOKEN = 'admin-secret-0123456789';

const app = useTestApp({ queues: true, adminToken: ADMIN_TOKEN });

/** The Basic credentials a browser remembers once the operator has signed in to the dashboard. */
const signedIn = `Basic ${Buffer.from(`operator:${ADMIN_TOKEN}`).toString('base64')}`;

const ADD_JOB = `/admin/queues/api/queues/${BATCHES_QUEUE}/add`;

/** A job the dashboard's "add job" form would make, as JSON. */
const job = (name: string) => JSON.stringify({ name, data: { probe: true }, options: {} });

async function jobNames(): Promise<string[]> {
  return (await app.batches.queue.getJobs(['waiting', 'delayed', 'prioritized'])).map((each) => each.name);
}

/** How a browser names a page of another origin: by `Origin`, or by `Sec-Fetch-Site`. */
const otherPages: { what: string; headers: Record<string, string> }[] = [
  { what: 'another origin', headers: { origin: 'https://evil.example' } },
  { what: 'another port', headers: { origin: 'http://127.0.0.1:1' } },
  { what: 'another site', headers: { 'sec-fetch-site': 'cross-site' } },
  { what: 'another origin of the same site', headers: { 'sec-fetch-site': 'same-site' } },
];

describe('changes to the queue dashboard from other pages', () => {
  it.each(otherPages)(
    'when a page of $what POSTs text/plain with the remembered credentials, then it answers 403 invalid_csrf_token and adds no job',
    async ({ headers }) => {
      const name = `cross-site-${Object.values(headers).join('-')}`;

      const response = await apiClient(app.server.url, null).request('POST', ADD_JOB, {
        rawBody: job(name),
        headers: { authorization: signedIn, 'content-type': 'text/plain', ...headers },
      });

      expectError(response, 403, 'invalid_csrf_token');
      expect(await jobNames()).not.toContain(name);
    },
  );

  it('when the dashboard’s own page adds a job, then the job is added', async () => {
    const response = await apiClient(app.server.url, null).request('POST', ADD_JOB, {
      rawBody: job('same-origin'),
      headers: {
        authorization: signedIn,
        'content-type': 'application/json',
        origin: app.server.url,
        'sec-fetch-site': 'same-origin',
      },
    });

    expect(response.status).toBe(200);
    expect(await jobNames()).toContain('same-origin');
  });

  it('when a link on another site opens the dashboard, then the page is served', async () => {
    const response = await fetch(`${app.server.url}/admin/queues`, {
      headers: { authorization: signedIn, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
