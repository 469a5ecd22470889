import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.js';

const METRICS_TOKEN = 'metrics-secret-0123456789';
const ADMIN_TOKEN = 'admin-secret-0123456789';
const FAILURE_LIMIT = 3;

const app = useTestApp({
  redis: 'live',
  queues: true,
  trustProxy: 'loopback',
  authFailuresPerSecond: FAILURE_LIMIT,
  metricsToken: METRICS_TOKEN,
  adminToken: ADMIN_TOKEN,
});

let clients = 0;
/** A client address of the test's own (through the trusted proxy), so that no other test's failures count. */
function newClient(): string {
  clients += 1;
  return `198.51.100.${clients}`;
}

function get(path: string, client: string, token: string): Promise<Response> {
  return fetch(`${app.server.url}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client },
  });
}

describe.each([
  { what: 'admin tokens', path: '/admin/queues', token: ADMIN_TOKEN },
  { what: 'metrics tokens', path: '/metrics', token: METRICS_TOKEN },
])('guessing $what', ({ path, token }) => {
  it(`when a client sends more than ${FAILURE_LIMIT} wrong tokens in a second, then it answers 429 with retry-after, even to the right token`, async () => {
    const client = newClient();
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let attempt = 0; attempt < FAILURE_LIMIT + 3; attempt += 1) {
      const response = await get(path, client, `not-the-token-${attempt}`);
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    const withRightToken = await get(path, client, token);

    expect(statuses.slice(0, FAILURE_LIMIT)).toEqual(Array(FAILURE_LIMIT).fill(401));
    expect(statuses).toContain(429);
    expect(await refused?.json()).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(withRightToken.status).toBe(429);
  });

  it(`when a client sends the right token more than ${FAILURE_LIMIT} times in a second, then every request is served`, async () => {
    const client = newClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < FAILURE_LIMIT * 2; attempt += 1) {
      statuses.push((await get(path, client, token)).status);
    }

    expect(statuses).toEqual(Array(FAILURE_LIMIT * 2).fill(200));
  });
});
