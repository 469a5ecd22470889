import type { Resend } from 'resend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { attemptDelivery } from '../../src/webhooks/attempt-delivery.js';
import { dispatchChanges } from '../../src/webhooks/dispatcher.js';
import { PRIVATE_RESPONSE_NOTE } from '../../src/webhooks/post-delivery.js';
import { uniqueEmail } from '../support/emails.js';
import { ISO_MS, UUID_V7 } from '../support/formats.js';
import { useTestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
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

const NON_PUBLIC = '`endpoint` must not point at a private, loopback or otherwise non-public address.';
const METADATA = '`endpoint` must not point at a cloud metadata or link-local address.';
const RESOLVES_NON_PUBLIC =
  '`endpoint` has a host name that resolves to a private, loopback or otherwise non-public address.';

/** Something that reads as an IPv4 or an IPv6 address. */
const ANY_ADDRESS = /\d+\.\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f]*:/i;

/** The cloud metadata address, 169.254.169.254, in every IPv6 address that carries an IPv4 address. */
const METADATA_IN_IPV6 = [
  'https://[::ffff:169.254.169.254]/latest/meta-data',
  'https://[::169.254.169.254]/latest/meta-data',
  'https://[::a9fe:a9fe]/latest/meta-data',
  'https://[::ffff:0:a9fe:a9fe]/latest/meta-data',
  'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
  'https://[64:ff9b::169.254.169.254]/latest/meta-data',
  'https://[64:ff9b:1::a9fe:a9fe]/latest/meta-data',
  'https://[2002:a9fe:a9fe::1]/latest/meta-data',
  'https://[2001:0:a9fe:a9fe::f7f7:fbfb]/latest/meta-data',
  'https://[2001:0:808:808::5601:5601]/latest/meta-data',
];

/** Loopback and private IPv4 addresses in every IPv6 address that carries an IPv4 address. */
const PRIVATE_IN_IPV6 = [
  'https://[::127.0.0.1]/hooks',
  'https://[::7f00:1]/hooks',
  'https://[::10.0.0.5]/hooks',
  'https://[::ffff:0:a00:5]/hooks',
  'https://[64:ff9b::127.0.0.1]/hooks',
  'https://[64:ff9b:1::a00:5]/hooks',
  'https://[2002:7f00:1::1]/hooks',
  'https://[2002:a00:5::1]/hooks',
  'https://[2001:0:808:808::80ff:fffe]/hooks',
  'https://[2001:0:a00:5::f7f7:fbfb]/hooks',
];

/** Creating a webhook at `endpoint` is refused with `message`, which names no address; nothing is created. */
async function expectCreateRefused(resend: Resend, endpoint: string, message: string): Promise<void> {
  const { error } = await resend.webhooks.create({ endpoint, events: [...BOTH] });
  expect(error).toEqual(invalid(message));
  expect(message).not.toMatch(ANY_ADDRESS);
  expect(dataOf(await resend.webhooks.list()).data).toEqual([]);
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
    ...METADATA_IN_IPV6,
  ])(
    'when private endpoints are allowed and the endpoint is the cloud metadata address %s, then create and update refuse it without naming the address',
    async (endpoint) => {
      const { resend } = await newClient();
      await expectCreateRefused(resend, endpoint, METADATA);
      const { id } = dataOf(await resend.webhooks.create({ endpoint: 'http://127.0.0.1:9/hooks', events: [...BOTH] }));
      expect((await resend.webhooks.update(id, { endpoint })).error).toEqual(invalid(METADATA));
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
    { endpoint: 'http://127.0.0.1/hooks', message: '`endpoint` must be an https:// URL.' },
    { endpoint: 'https://127.0.0.1/hooks', message: NON_PUBLIC },
    { endpoint: 'https://10.0.0.5/hooks', message: NON_PUBLIC },
    { endpoint: 'https://169.254.169.254/latest/meta-data', message: METADATA },
    { endpoint: 'https://[::1]/hooks', message: NON_PUBLIC },
    { endpoint: 'https://[fd00:ec2::254]/hooks', message: METADATA },
    { endpoint: 'https://0x7f.1/hooks', message: NON_PUBLIC },
    { endpoint: 'https://user:secret@93.184.215.14/hooks', message: '`endpoint` must not contain credentials.' },
    { endpoint: 'hooks.example.com/in', message: '`endpoint` must be an absolute URL.' },
    ...PRIVATE_IN_IPV6.map((endpoint) => ({ endpoint, message: NON_PUBLIC })),
    ...METADATA_IN_IPV6.map((endpoint) => ({ endpoint, message: METADATA })),
  ])(
    'when the endpoint is $endpoint, then create refuses it with a 422 naming endpoint and no address',
    async ({ endpoint, message }) => {
      const { resend } = await newClient(strict);

      await expectCreateRefused(resend, endpoint, message);
    },
  );

  it('when the endpoint’s host name resolves to loopback, then create refuses it without saying what the name resolves to', async () => {
    const { resend } = await newClient(strict);

    await expectCreateRefused(resend, 'https://localhost/hooks', RESOLVES_NON_PUBLIC);
  });

  it('when an existing webhook is moved to a private endpoint, then the update is refused and it keeps its endpoint', async () => {
    const { resend } = await newClient(strict);
    const { id } = dataOf(await resend.webhooks.create({ endpoint: 'https://93.184.215.14/hooks', events: [...BOTH] }));

    expect((await resend.webhooks.update(id, { endpoint: 'https://192.168.1.10/hooks' })).error).toEqual(
      invalid(NON_PUBLIC),
    );
    expect((await resend.webhooks.update(id, { endpoint: 'https://localhost/hooks' })).error).toEqual(
      invalid(RESOLVES_NON_PUBLIC),
    );
    expect((await resend.webhooks.update(id, { endpoint: 'https://[64:ff9b::a00:5]/hooks' })).error).toEqual(
      invalid(NON_PUBLIC),
    );
    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe('https://93.184.215.14/hooks');
  });

  it.each([
    'https://93.184.215.14/hooks',
    'https://[64:ff9b::93.184.215.14]/hooks',
    'https://[2002:5db8:d70e::1]/hooks',
  ])('when the endpoint is %s, public or carrying a public IPv4 address, then it is accepted', async (endpoint) => {
    const { resend } = await newClient(strict);

    const { id } = dataOf(await resend.webhooks.create({ endpoint, events: [...BOTH] }));
    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe(endpoint);
  });
});

describe('endpoint checks with private ranges named in WEBHOOKS_PRIVATE_CIDRS', () => {
  let ranged: RunningServer;
  let loopbackListed: RunningServer;

  beforeAll(async () => {
    ranged = await app.startApp({ webhooks: { privateCidrs: ['10.20.0.0/16', 'fd12:3456::/48', '169.254.0.0/16'] } });
    loopbackListed = await app.startApp({ webhooks: { privateCidrs: ['127.0.0.0/8', '::1/128'] } });
  });

  it.each([
    'https://10.20.3.4/hooks',
    'https://[fd12:3456::7]/hooks',
    'https://[::ffff:10.20.3.4]/hooks',
    'https://[64:ff9b::10.20.3.4]/hooks',
  ])('when the endpoint %s is in a listed range, then it is accepted', async (endpoint) => {
    const { resend } = await newClient(ranged);

    const { id } = dataOf(await resend.webhooks.create({ endpoint, events: [...BOTH] }));
    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe(endpoint);
  });

  it('when the endpoint’s host name resolves only into listed ranges, then it is accepted', async () => {
    const { resend } = await newClient(loopbackListed);

    const { id } = dataOf(await resend.webhooks.create({ endpoint: 'https://localhost/hooks', events: [...BOTH] }));
    expect(dataOf(await resend.webhooks.get(id)).endpoint).toBe('https://localhost/hooks');
  });

  it.each([
    { endpoint: 'https://10.30.0.1/hooks', message: NON_PUBLIC },
    { endpoint: 'https://192.168.1.10/hooks', message: NON_PUBLIC },
    { endpoint: 'https://[fd12:3457::1]/hooks', message: NON_PUBLIC },
    { endpoint: 'https://[::10.30.0.1]/hooks', message: NON_PUBLIC },
    { endpoint: 'https://localhost/hooks', message: RESOLVES_NON_PUBLIC },
    { endpoint: 'http://10.20.3.4/hooks', message: '`endpoint` must be an https:// URL.' },
  ])(
    'when the endpoint $endpoint is private and in no listed range, or not https://, then it is refused',
    async ({ endpoint, message }) => {
      const { resend } = await newClient(ranged);

      await expectCreateRefused(resend, endpoint, message);
    },
  );

  it.each(['https://169.254.169.254/latest/meta-data', 'https://169.254.170.2/v2/credentials', ...METADATA_IN_IPV6])(
    'when the metadata address %s is inside a listed range, then it is still refused',
    async (endpoint) => {
      const { resend } = await newClient(ranged);

      await expectCreateRefused(resend, endpoint, METADATA);
    },
  );
});

describe('what the attempts of a private destination show', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('when a delivery goes to an endpoint on a private address, then its attempts show the status and a note, never the body it answered', async () => {
    receiver.answer = () => 503;
    const { resend } = await newClient();
    const { id: webhookId } = dataOf(await resend.webhooks.create({ endpoint: receiver.url, events: [...BOTH] }));
    dataOf(await resend.suppressions.add({ email: uniqueEmail() }));
    await dispatchChanges(app.database.db, 100);
    const [event] = dataOf(await resend.webhooks.events.list({ webhookId })).data;

    const result = await attemptDelivery(
      app.database.db,
      { deliveryId: event!.id, attempt: 0 },
      { allowPrivate: true, privateCidrs: [], retryDelaysMs: [] },
    );

    expect(result.outcome).toBe('failed');
    expect(receiver.received.map((delivery) => delivery.status)).toEqual([503]);
    const attempts = dataOf(await resend.webhooks.events.attempts.list({ webhookId, eventId: event!.id }));
    expect(attempts.data).toEqual([
      {
        id: expect.stringMatching(UUID_V7),
        http_status_code: 503,
        response: PRIVATE_RESPONSE_NOTE,
        sent_at: expect.stringMatching(ISO_MS),
      },
    ]);
    expect(JSON.stringify(attempts)).not.toContain('receiver says');
  });
});
