import { describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpointProblem, isMetadataAddress, isPublicAddress } from '../../src/webhooks/endpoint-safety.js';
import { postDelivery } from '../../src/webhooks/post-delivery.js';

describe('which addresses count as public', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.3.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'the cloud metadata address (link-local)'],
    ['100.100.100.200', 'Alibaba’s metadata address (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['198.18.0.1', 'reserved for benchmarks'],
    ['::1', 'IPv6 loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00:ec2::254', 'AWS’s IPv6 metadata address (unique local)'],
    ['::ffff:127.0.0.1', 'loopback in an IPv4-mapped IPv6 address'],
    ['::ffff:169.254.169.254', 'metadata in an IPv4-mapped IPv6 address'],
    ['64:ff9b::7f00:1', 'loopback through NAT64'],
    ['not-an-address', 'not an address at all'],
  ])('when the address is %s (%s), then it is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'when the address is %s, then it is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('what an endpoint may be', () => {
  it.each([
    ['http://8.8.8.8/hook', 'must be an https:// URL.'],
    ['ftp://8.8.8.8/hook', 'must be an https:// URL.'],
    ['/relative/hook', 'must be an absolute URL.'],
    ['https://user:secret@8.8.8.8/hook', 'must not contain credentials.'],
    ['https://127.0.0.1/hook', 'must not point at a private, loopback, link-local or reserved address (127.0.0.1).'],
    ['https://0x7f.1/hook', 'must not point at a private, loopback, link-local or reserved address (127.0.0.1).'],
    ['https://2130706433/hook', 'must not point at a private, loopback, link-local or reserved address (127.0.0.1).'],
    ['https://[::1]:8443/hook', 'must not point at a private, loopback, link-local or reserved address (::1).'],
    [
      'https://169.254.169.254/latest/meta-data/',
      'must not point at a cloud metadata or link-local address (169.254.169.254).',
    ],
    [`https://8.8.8.8/${'a'.repeat(2048)}`, 'must be at most 2048 characters.'],
  ])('when private endpoints are not allowed and the endpoint is %s, then it is refused', (endpoint, problem) => {
    expect(endpointProblem(endpoint, false)).toBe(problem);
  });

  it('when private endpoints are not allowed, then a public https:// endpoint is taken', () => {
    expect(endpointProblem('https://8.8.8.8/hook', false)).toBeNull();
    expect(endpointProblem('https://hooks.example.com/suppressions?tenant=7', false)).toBeNull();
  });

  it('when private endpoints are allowed, then http:// and loopback endpoints are taken but other schemes still are not', () => {
    expect(endpointProblem('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(endpointProblem('https://[::1]/hook', true)).toBeNull();
    expect(endpointProblem('ftp://127.0.0.1/hook', true)).toBe('must be an http:// or https:// URL.');
  });
});

describe('cloud metadata addresses, refused even where private endpoints are allowed', () => {
  it.each([
    ['169.254.169.254', 'AWS, Google Cloud, Azure'],
    ['169.254.170.2', 'ECS task credentials'],
    ['fd00:ec2::254', 'AWS over IPv6'],
    ['fd00:ec2:0:0:0:0:0:254', 'AWS over IPv6, written out'],
    ['100.100.100.200', 'Alibaba Cloud'],
    ['::ffff:169.254.169.254', 'in an IPv4-mapped IPv6 address'],
    ['::ffff:100.100.100.200', 'Alibaba’s, IPv4-mapped'],
    ['fe80::a9fe:a9fe', 'IPv6 link-local'],
  ])('when the address is %s (%s), then it is a metadata address', (address) => {
    expect(isMetadataAddress(address)).toBe(true);
  });

  it.each(['127.0.0.1', '10.0.0.5', '192.168.1.10', '::1', 'fd00::1', '100.100.100.201', '8.8.8.8', 'not-an-address'])(
    'when the address is %s, then it is not a metadata address',
    (address) => {
      expect(isMetadataAddress(address)).toBe(false);
    },
  );

  it.each([
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[fd00:ec2::254]/latest/meta-data/', 'fd00:ec2::254'],
    ['http://100.100.100.200/latest/meta-data/', '100.100.100.200'],
    ['https://[::ffff:a9fe:a9fe]/computeMetadata/v1/', '::ffff:a9fe:a9fe'],
    ['http://169.254.170.2/v2/credentials', '169.254.170.2'],
  ])('when private endpoints are allowed and the endpoint is %s, then it is still refused', (endpoint, address) => {
    expect(endpointProblem(endpoint, true)).toBe(
      `must not point at a cloud metadata or link-local address (${address}).`,
    );
  });

  it('when a stored endpoint points at a metadata address, then its delivery is refused without a connection, even with private endpoints allowed', async () => {
    const result = await postDelivery({
      endpoint: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      body: '{}',
      headers: {},
      allowPrivate: true,
      timeoutMs: 2000,
    });

    expect(result).toEqual({
      statusCode: 0,
      response: 'refused: 169.254.169.254 resolves to 169.254.169.254, which is a cloud metadata or link-local address',
      durationMs: 0,
    });
  });

  it('when private endpoints are allowed, then a loopback receiver is still delivered to', async () => {
    const server = http.createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await postDelivery({
        endpoint: `http://localhost:${port}/hook`,
        body: '{}',
        headers: {},
        allowPrivate: true,
      });
      expect(result.statusCode).toBe(204);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
