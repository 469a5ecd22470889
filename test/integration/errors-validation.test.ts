import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { expectError } from '../support/api-client.js';
import { uniqueEmail, uniqueEmails } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp();

describe('422 validation_error on the list query', () => {
  it.each([
    { what: 'limit is 0', query: 'limit=0', field: '`limit`' },
    { what: 'limit is 101', query: 'limit=101', field: '`limit`' },
    { what: 'limit is -1', query: 'limit=-1', field: '`limit`' },
    { what: 'limit is 1.5', query: 'limit=1.5', field: '`limit`' },
    { what: 'limit is abc', query: 'limit=abc', field: '`limit`' },
    { what: 'limit is empty', query: 'limit=', field: '`limit`' },
    { what: 'limit is repeated', query: 'limit=1&limit=2', field: '`limit`' },
    {
      what: 'after and before are both given',
      query: `after=${newId()}&before=${newId()}`,
      field: '`after` and `before`',
    },
    { what: 'after is not a UUID', query: 'after=not-a-uuid', field: '`after`' },
    { what: 'after is empty', query: 'after=', field: '`after`' },
    { what: 'before is not a UUID', query: 'before=12345', field: '`before`' },
    { what: 'origin is unknown', query: 'origin=spam', field: '`origin`' },
    { what: 'origin is in capitals', query: 'origin=BOUNCE', field: '`origin`' },
  ])('when $what, then it answers 422 and the message names the field', async ({ query, field }) => {
    const { api } = await newApiAccount(app);
    const response = await api.get(`/suppressions?${query}`);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain(field);
  });
});

describe('422 validation_error on batch bodies', () => {
  const many = uniqueEmails(101);

  it.each([
    { what: 'batch add has an empty array', path: '/suppressions/batch/add', body: { emails: [] }, field: '`emails`' },
    { what: 'batch add has 101 items', path: '/suppressions/batch/add', body: { emails: many }, field: '`emails`' },
    {
      what: 'batch add emails is not an array',
      path: '/suppressions/batch/add',
      body: { emails: 'a@example.com' },
      field: '`emails`',
    },
    { what: 'batch add has no emails', path: '/suppressions/batch/add', body: {}, field: '`emails`' },
    {
      what: 'batch add has a non-string item',
      path: '/suppressions/batch/add',
      body: { emails: ['a@example.com', 42] },
      field: '`emails[1]`',
    },
    {
      what: 'batch remove has both emails and ids',
      path: '/suppressions/batch/remove',
      body: { emails: ['a@example.com'], ids: [newId()] },
      field: '`ids`',
    },
    {
      what: 'batch remove has neither emails nor ids',
      path: '/suppressions/batch/remove',
      body: {},
      field: '`emails` or `ids`',
    },
    {
      what: 'batch remove has an empty emails array',
      path: '/suppressions/batch/remove',
      body: { emails: [] },
      field: '`emails`',
    },
    {
      what: 'batch remove has an empty ids array',
      path: '/suppressions/batch/remove',
      body: { ids: [] },
      field: '`ids`',
    },
    {
      what: 'batch remove has 101 emails',
      path: '/suppressions/batch/remove',
      body: { emails: many },
      field: '`emails`',
    },
    {
      what: 'batch remove has 101 ids',
      path: '/suppressions/batch/remove',
      body: { ids: Array.from({ length: 101 }, () => newId()) },
      field: '`ids`',
    },
    {
      what: 'batch remove emails is not an array',
      path: '/suppressions/batch/remove',
      body: { emails: 'a@example.com' },
      field: '`emails`',
    },
    {
      what: 'batch remove has a non-string email',
      path: '/suppressions/batch/remove',
      body: { emails: [null] },
      field: '`emails[0]`',
    },
    {
      what: 'batch remove has a non-UUID id',
      path: '/suppressions/batch/remove',
      body: { ids: [newId(), 'not-a-uuid'] },
      field: '`ids[1]`',
    },
  ])('when $what, then it answers 422 and the message names the field', async ({ path, body, field }) => {
    const { api } = await newApiAccount(app);
    const response = await api.post(path, body);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain(field);
  });

  it('when a batch add has a bad address at index 1, then it answers 422 naming emails[1] and writes nothing', async () => {
    const { api } = await newApiAccount(app);
    const [good, other] = uniqueEmails(2);
    const response = await api.post('/suppressions/batch/add', { emails: [good, 'not-an-address', other] });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`emails[1]`');
    expect((await api.get('/suppressions')).body.data).toEqual([]);
  });

  it('when a batch remove has a bad address at index 1, then it answers 422 naming emails[1] and removes nothing', async () => {
    const { api } = await newApiAccount(app);
    const good = uniqueEmail();
    const { body: added } = await api.post('/suppressions', { email: good });
    const response = await api.post('/suppressions/batch/remove', { emails: [good, 'not-an-address'] });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`emails[1]`');
    expect((await api.get(`/suppressions/${added.id}`)).status).toBe(200);
  });
});

describe('422 validation_error on POST /suppressions', () => {
  it.each([
    { what: 'the email is missing', body: {} },
    { what: 'the email is not a string', body: { email: 42 } },
    { what: 'the email is empty', body: { email: '' } },
    { what: 'the email is only spaces', body: { email: '   ' } },
    { what: 'the email is not an address', body: { email: 'not-an-address' } },
    { what: 'the email has no dot in its domain', body: { email: 'user@localhost' } },
  ])('when $what, then it answers 422 naming `email`', async ({ body }) => {
    const { api } = await newApiAccount(app);
    const response = await api.post('/suppressions', body);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`email`');
  });
});

describe('422 validation_error on unreadable bodies', () => {
  const endpoints = ['/suppressions', '/suppressions/batch/add', '/suppressions/batch/remove'];

  it.each(endpoints)('when the JSON sent to %s is malformed, then it answers 422', async (path) => {
    const { api } = await newApiAccount(app);
    const response = await api.request('POST', path, { rawBody: '{"emails": ["a@example.com"' });
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toMatch(/JSON/);
  });

  it.each(
    endpoints.flatMap((path) => [
      { path, kind: 'an array', rawBody: '["a@example.com"]' },
      { path, kind: 'null', rawBody: 'null' },
      { path, kind: 'a string', rawBody: '"a@example.com"' },
      { path, kind: 'a number', rawBody: '42' },
    ]),
  )('when the JSON body sent to $path is $kind, then it answers 422', async ({ path, rawBody }) => {
    const { api } = await newApiAccount(app);
    const response = await api.request('POST', path, { rawBody });
    expectError(response, 422, 'validation_error');
  });

  it('when a JSON content type comes with an empty body, then it answers 422', async () => {
    const { api } = await newApiAccount(app);
    const response = await api.request('POST', '/suppressions/batch/add', { rawBody: '' });
    expectError(response, 422, 'validation_error');
  });

  it.each([
    { path: '/suppressions', body: (email: string) => ({ email }) },
    { path: '/suppressions/batch/add', body: (email: string) => ({ emails: [email] }) },
  ])('when a body is sent to $path as text/plain, then it answers 422 and writes nothing', async ({ path, body }) => {
    const { api } = await newApiAccount(app);
    const email = uniqueEmail();
    const response = await api.request('POST', path, {
      rawBody: JSON.stringify(body(email)),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(response, 422, 'validation_error');
    expect((await api.get('/suppressions')).body.data).toEqual([]);
  });
});

describe('422 validation_error on the {suppression} path', () => {
  it.each([
    { method: 'GET', path: '/suppressions/not-an-address' },
    { method: 'DELETE', path: '/suppressions/not-an-address' },
    { method: 'GET', path: '/suppressions/1234' },
    { method: 'GET', path: '/suppressions/user%40' },
  ])('when $method $path is neither an id nor an address, then it answers 422', async ({ method, path }) => {
    const { api } = await newApiAccount(app);
    const response = await api.request(method, path);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain('`suppression`');
  });

  it.each([
    { method: 'GET', path: '/suppressions/%E0%A4%A' },
    { method: 'GET', path: '/suppressions/abc%' },
    { method: 'DELETE', path: '/suppressions/%zz@example.com' },
  ])('when $method $path is malformed percent-encoding, then it answers 422', async ({ method, path }) => {
    const { api } = await newApiAccount(app);
    const response = await api.request(method, path);
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toMatch(/percent-encoded/);
  });
});
