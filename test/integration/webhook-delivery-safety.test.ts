import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EndpointPolicy } from '../../src/webhooks/endpoint-safety.js';
import { postDelivery, PRIVATE_RESPONSE_NOTE } from '../../src/webhooks/post-delivery.js';

// A server on loopback that must never be reached while private endpoints are not allowed.
let server: Server;
let port: number;
let reached = 0;
// A bare TCP listener on loopback: an https:// delivery reaches it (and fails its TLS handshake)
// only if the address checks let the connection through.
let tcp: TcpServer;
let tcpPort: number;
let connections = 0;
const tcpSockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((_req, res) => {
    reached += 1;
    res.writeHead(200).end('the internal service says: secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  tcp = createTcpServer((socket) => {
    connections += 1;
    tcpSockets.add(socket);
    socket.on('close', () => tcpSockets.delete(socket));
    socket.end('not TLS\r\n\r\n');
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of tcpSockets) socket.destroy();
  await new Promise<void>((resolve) => tcp.close(() => resolve()));
});
beforeEach(() => {
  reached = 0;
  connections = 0;
});

const PUBLIC_ONLY: EndpointPolicy = { allowPrivate: false, privateCidrs: [] };
const PRIVATE_ALLOWED: EndpointPolicy = { allowPrivate: true, privateCidrs: [] };
const REFUSED_NON_PUBLIC =
  'refused: the endpoint is or resolves to a private, loopback or otherwise non-public address';

function post(endpoint: string, policy: EndpointPolicy) {
  return postDelivery({ endpoint, body: '{}', headers: {}, ...policy, timeoutMs: 2000 });
}

describe('server-side request forgery at delivery', () => {
  it('when a stored endpoint is plain http:// and private endpoints are not allowed, then nothing is sent', async () => {
    const result = await post(`http://127.0.0.1:${port}/hook`, PUBLIC_ONLY);
    expect(result).toMatchObject({ statusCode: 0, response: 'refused: the endpoint is not https://' });
    expect(reached).toBe(0);
  });

  it('when a stored endpoint is a loopback address, then it is refused without connecting, and the record names no address', async () => {
    const result = await post(`https://127.0.0.1:${port}/hook`, PUBLIC_ONLY);
    expect(result).toMatchObject({ statusCode: 0, response: REFUSED_NON_PUBLIC });
    expect(reached).toBe(0);
  });

  it.each([
    '[::127.0.0.1]',
    '[::7f00:1]',
    '[::ffff:0:7f00:1]',
    '[64:ff9b::127.0.0.1]',
    '[64:ff9b:1::7f00:1]',
    '[2002:7f00:1::1]',
    '[2001:0:808:808::80ff:fffe]',
  ])(
    'when a stored endpoint is loopback carried in the IPv6 address %s, then it is refused without connecting',
    async (host) => {
      const result = await post(`https://${host}:${tcpPort}/hook`, PUBLIC_ONLY);
      expect(result).toMatchObject({ statusCode: 0, response: REFUSED_NON_PUBLIC });
      expect(connections).toBe(0);
    },
  );

  it('when a stored endpoint’s host name resolves to loopback, then the lookup refuses it, nothing is sent, and the record does not say what the name resolves to', async () => {
    const result = await post(`https://localhost:${port}/hook`, PUBLIC_ONLY);
    expect(result).toMatchObject({ statusCode: 0, response: REFUSED_NON_PUBLIC });
    expect(reached).toBe(0);
  });

  it('when private endpoints are allowed, then the same loopback endpoint is delivered to, and the body it answered is not kept', async () => {
    const result = await post(`http://localhost:${port}/hook`, PRIVATE_ALLOWED);
    expect(result).toMatchObject({ statusCode: 200, response: PRIVATE_RESPONSE_NOTE });
    expect(reached).toBe(1);
  });

  it('when private endpoints are allowed and the private endpoint refuses the connection, then the record keeps the error’s code without its address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const result = await post(`http://127.0.0.1:${closedPort}/hook`, PRIVATE_ALLOWED);
    expect(result).toMatchObject({ statusCode: 0, response: `ECONNREFUSED ${PRIVATE_RESPONSE_NOTE}` });
  });
});

describe('private ranges named in WEBHOOKS_PRIVATE_CIDRS, at delivery', () => {
  const loopbackListed: EndpointPolicy = { allowPrivate: false, privateCidrs: ['127.0.0.0/8', '::1/128'] };

  it('when the stored endpoint’s address is in a listed range, then the delivery connects to it, and what went wrong there is not kept', async () => {
    const result = await post(`https://127.0.0.1:${tcpPort}/hook`, loopbackListed);
    expect(connections).toBe(1);
    expect(result.statusCode).toBe(0);
    expect(result.response).toMatch(/^E[A-Z_]+ \(not kept: the endpoint is on a private address\)$/);
  });

  it('when the stored endpoint’s host name resolves into a listed range, then the delivery connects to it', async () => {
    const result = await post(`https://localhost:${tcpPort}/hook`, loopbackListed);
    expect(connections).toBe(1);
    expect(result.response).toMatch(/^E[A-Z_]+ \(not kept: the endpoint is on a private address\)$/);
  });

  it('when the stored endpoint’s address is private and in no listed range, then it is refused without connecting', async () => {
    const elsewhere: EndpointPolicy = { allowPrivate: false, privateCidrs: ['10.20.0.0/16'] };

    expect(await post(`https://127.0.0.1:${tcpPort}/hook`, elsewhere)).toMatchObject({
      statusCode: 0,
      response: REFUSED_NON_PUBLIC,
    });
    expect(await post(`https://localhost:${tcpPort}/hook`, elsewhere)).toMatchObject({
      statusCode: 0,
      response: REFUSED_NON_PUBLIC,
    });
    expect(connections).toBe(0);
  });

  it('when the stored endpoint in a listed range is http://, then nothing is sent: the ranges are for https:// only', async () => {
    const result = await post(`http://127.0.0.1:${port}/hook`, loopbackListed);
    expect(result).toMatchObject({ statusCode: 0, response: 'refused: the endpoint is not https://' });
    expect(reached).toBe(0);
  });
});
