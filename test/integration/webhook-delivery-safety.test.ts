import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postDelivery } from '../../src/webhooks/post-delivery.js';

// A server on loopback that must never be reached while private endpoints are not allowed.
let server: Server;
let port: number;
let reached = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    reached += 1;
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function post(endpoint: string, allowPrivate: boolean) {
  return postDelivery({ endpoint, body: '{}', headers: {}, allowPrivate, timeoutMs: 2000 });
}

describe('server-side request forgery at delivery', () => {
  it('when a stored endpoint is plain http:// and private endpoints are not allowed, then nothing is sent', async () => {
    const result = await post(`http://127.0.0.1:${port}/hook`, false);
    expect(result).toMatchObject({ statusCode: 0, response: 'refused: the endpoint is not https://' });
    expect(reached).toBe(0);
  });

  it('when a stored endpoint is a loopback address, then it is refused without connecting', async () => {
    const result = await post(`https://127.0.0.1:${port}/hook`, false);
    expect(result).toMatchObject({
      statusCode: 0,
      response: 'refused: 127.0.0.1 resolves to 127.0.0.1, which is not a public address',
    });
    expect(reached).toBe(0);
  });

  it('when a stored endpoint’s host name resolves to loopback, then the lookup refuses it and nothing is sent', async () => {
    const result = await post(`https://localhost:${port}/hook`, false);
    expect(result.statusCode).toBe(0);
    expect(result.response).toMatch(
      /^refused: localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/,
    );
    expect(reached).toBe(0);
  });

  it('when private endpoints are allowed, then the same loopback endpoint is delivered to', async () => {
    const result = await post(`http://localhost:${port}/hook`, true);
    expect(result).toMatchObject({ statusCode: 200, response: 'ok' });
    expect(reached).toBe(1);
  });
});
