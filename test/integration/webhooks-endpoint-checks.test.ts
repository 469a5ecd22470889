import type { Resend } from 'resend';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { useTestApp } from '../support/test-app.js';
import { BOTH, dataOf, invalid, newSdkClient } from '../support/webhooks-sdk.js';

const app = useTestApp({
  redis: 'live',
  rateLimitPerSecond: 10_000,
  webhooks: { allowPrivateEndpoints: true },
});

/** Resend's own SDK, pointed at `server` (the file's app unless said), for a brand-new account. */
function newClient(server?: RunningServer): Promise<{ resend: Resend; accountId: string; token: string }> {
  return newSdkClient(app.database.db, (server ?? app.server).url);
}

describe('endpoint checks when private endpoints are allowed', () => {
  it.each([
    'http://127.0.0.1:8080/hooks',
    'https://127.0.0.1/hooks',
    'https://10.0.0.5/hooks',
    'https://[::1]/hooks',
    'https://[fd00::5]/hooks',
    'https://localhost/hooks',
    'https://0x7f.1/hooks',
  ])('when private endpoints are allowed and the endpoint is %s, then it is accepted', async (endpoint) => {
    const { resend } = await newClient();
    const { id } = dataOf(await resend.webhooks.create({ endpoint, events: ['suppression.added'] }));

    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe(endpoint);
  });

  it.each([
    'https://169.254.169.254/latest/meta-data',
    'http://169.254.169.254/computeMetadata/v1/',
    'https://[fd00:ec2::254]/hooks',
    'http://100.100.100.200/latest/meta-data',
    'http://[::ffff:169.254.169.254]/latest/meta-data',
  ])(
    'when private endpoints are allowed and the endpoint is the cloud metadata address %s, then create and update refuse it',
    async (endpoint) => {
      const { resend } = await newClient();
      const { error } = await resend.webhooks.create({ endpoint, events: [...BOTH] });
      expect(error).toMatchObject({ statusCode: 422, name: 'validation_error' });
      expect((error as { message: string }).message).toMatch(
        /^`endpoint` must not point at a cloud metadata or link-local address \(.+\)\.$/,
      );
      const { id } = dataOf(await resend.webhooks.create({ endpoint: 'http://127.0.0.1:9/hooks', events: [...BOTH] }));
      expect((await resend.webhooks.update(id, { endpoint })).error).toMatchObject({ statusCode: 422 });
      expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe('http://127.0.0.1:9/hooks');
    },
  );

  it('when private endpoints are allowed, then an endpoint with credentials is still refused', async () => {
    const { resend } = await newClient();

    expect(
      (await resend.webhooks.create({ endpoint: 'http://user:secret@127.0.0.1/hooks', events: [...BOTH] })).error,
    ).toEqual(invalid('`endpoint` must not contain credentials.'));
  });
});

describe('endpoint checks when private endpoints are not allowed', () => {
  let strict: RunningServer;

  beforeAll(async () => {
    strict = await app.startApp({ webhooks: { allowPrivateEndpoints: false } });
  });

  it('when the endpoint is http://, then it is refused: only https:// is taken', async () => {
    const { resend } = await newClient(strict);

    expect((await resend.webhooks.create({ endpoint: 'http://93.184.215.14/hooks', events: [...BOTH] })).error).toEqual(
      invalid('`endpoint` must be an https:// URL.'),
    );
  });

  it.each([
    { endpoint: 'http://127.0.0.1/hooks', problem: 'must be an https:// URL.' },
    { endpoint: 'https://127.0.0.1/hooks', problem: /^must not point at a private.*\(127\.0\.0\.1\)\.$/ },
    { endpoint: 'https://10.0.0.5/hooks', problem: /\(10\.0\.0\.5\)\.$/ },
    { endpoint: 'https://169.254.169.254/latest/meta-data', problem: /\(169\.254\.169\.254\)\.$/ },
    { endpoint: 'https://[::1]/hooks', problem: /\(::1\)\.$/ },
    { endpoint: 'https://[fd00:ec2::254]/hooks', problem: /\(fd00:ec2::254\)\.$/ },
    { endpoint: 'https://localhost/hooks', problem: /^must not resolve to a private.*\(localhost is .+\)\.$/ },
    { endpoint: 'https://0x7f.1/hooks', problem: /\(127\.0\.0\.1\)\.$/ },
    { endpoint: 'https://user:secret@93.184.215.14/hooks', problem: 'must not contain credentials.' },
    { endpoint: 'hooks.example.com/in', problem: 'must be an absolute URL.' },
  ])(
    'when the endpoint is $endpoint, then create refuses it with a 422 naming endpoint',
    async ({ endpoint, problem }) => {
      const { resend } = await newClient(strict);

      const { error } = await resend.webhooks.create({ endpoint, events: [...BOTH] });
      expect(error).toMatchObject({ statusCode: 422, name: 'validation_error' });
      const message = (error as { message: string }).message;
      expect(message.startsWith('`endpoint` ')).toBe(true);
      if (typeof problem === 'string') expect(message).toBe(`\`endpoint\` ${problem}`);
      else expect(message.slice('`endpoint` '.length)).toMatch(problem);
      expect(dataOf(await resend.webhooks.list()).data).toEqual([]);
    },
  );

  it('when an existing webhook is moved to a private endpoint, then the update is refused and it keeps its endpoint', async () => {
    const { resend } = await newClient(strict);
    const { id } = dataOf(await resend.webhooks.create({ endpoint: 'https://93.184.215.14/hooks', events: [...BOTH] }));

    expect((await resend.webhooks.update(id, { endpoint: 'https://192.168.1.10/hooks' })).error).toEqual(
      invalid('`endpoint` must not point at a private, loopback, link-local or reserved address (192.168.1.10).'),
    );
    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe('https://93.184.215.14/hooks');
  });

  it('when the endpoint is https:// on a public address, then it is accepted', async () => {
    const { resend } = await newClient(strict);

    const { id } = dataOf(await resend.webhooks.create({ endpoint: 'https://93.184.215.14/hooks', events: [...BOTH] }));
    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe('https://93.184.215.14/hooks');
  });
});
