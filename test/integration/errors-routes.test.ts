import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { expectError, type ApiResponse } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp();

function allowedMethods(response: ApiResponse): string[] {
  return (response.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean).sort();
}

describe('404 not_found', () => {
  it('when the id is unknown, then GET answers 404', async () => {
    const { api } = await newApiAccount(app);
    expectError(await api.get(`/suppressions/${newId()}`), 404, 'not_found');
  });

  it('when the address is unknown, then GET answers 404', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    expectError(await api.get(`/suppressions/${encodeURIComponent(email)}`), 404, 'not_found');
  });

  it('when the id is unknown, then DELETE answers 404', async () => {
    const { api } = await newApiAccount(app);
    expectError(await api.delete(`/suppressions/${newId()}`), 404, 'not_found');
  });

  it('when the address is unknown, then DELETE answers 404', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    expectError(await api.delete(`/suppressions/${email}`), 404, 'not_found');
  });

  it('when an entry was already deleted, then deleting it again answers 404', async () => {
    const { api } = await newApiAccount(app);
    const { body: added } = await api.post('/suppressions', { email: uniqueEmail() });
    expect((await api.delete(`/suppressions/${added.id}`)).status).toBe(200);
    expectError(await api.delete(`/suppressions/${added.id}`), 404, 'not_found');
  });

  it.each([
    { method: 'GET', path: '/nope' },
    { method: 'POST', path: '/nope' },
    { method: 'GET', path: '/suppressions/a/b/c' },
    { method: 'DELETE', path: '/suppressions/batch/add/extra' },
  ])('when the route $method $path does not exist, then it answers 404', async ({ method, path }) => {
    const { api } = await newApiAccount(app);
    expectError(await api.request(method, path), 404, 'not_found');
  });
});

describe('405 method_not_allowed', () => {
  it.each([
    { method: 'PUT', path: '/suppressions/0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d', allow: ['DELETE', 'GET'] },
    { method: 'PATCH', path: '/suppressions/0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d', allow: ['DELETE', 'GET'] },
    { method: 'PUT', path: '/suppressions/someone@example.com', allow: ['DELETE', 'GET'] },
    { method: 'GET', path: '/suppressions/batch/add', allow: ['POST'] },
    { method: 'DELETE', path: '/suppressions/batch/remove', allow: ['POST'] },
    { method: 'DELETE', path: '/suppressions', allow: ['GET', 'POST'] },
    { method: 'POST', path: '/health', allow: ['GET'] },
  ])('when $method is used on $path, then it answers 405 with an Allow header', async ({ method, path, allow }) => {
    const { api } = await newApiAccount(app);
    const response = await api.request(method, path);
    expectError(response, 405, 'method_not_allowed');
    expect(allowedMethods(response)).toEqual(allow);
  });
});

describe('413 payload_too_large', () => {
  it('when a batch add body is over 1 MB, then it answers 413 and writes nothing', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const rawBody = JSON.stringify({ emails: [email], padding: 'x'.repeat(1024 * 1024) });
    expect(Buffer.byteLength(rawBody)).toBeGreaterThan(1024 * 1024);
    const response = await api.request('POST', '/suppressions/batch/add', { rawBody });
    expectError(response, 413, 'payload_too_large');
    expect((await api.get('/suppressions')).body.data).toEqual([]);
  });

  it('when a body is just under 1 MB, then it is read (and judged on its content)', async () => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const rawBody = JSON.stringify({ emails: [email], padding: 'x'.repeat(1000 * 1000) });
    expect(Buffer.byteLength(rawBody)).toBeLessThan(1024 * 1024);
    const response = await api.request('POST', '/suppressions/batch/add', { rawBody });
    expect(response.status).toBe(201);
  });
});
