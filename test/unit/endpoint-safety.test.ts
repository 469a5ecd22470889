import { describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  endpointProblem,
  isAllowedAddress,
  isMetadataAddress,
  isPublicAddress,
  type EndpointPolicy,
} from '../../src/webhooks/endpoint-safety.js';
import { postDelivery } from '../../src/webhooks/post-delivery.js';

const PUBLIC_ONLY: EndpointPolicy = { allowPrivate: false, privateCidrs: [] };
const PRIVATE_ALLOWED: EndpointPolicy = { allowPrivate: true, privateCidrs: [] };

const NON_PUBLIC = 'must not point at a private, loopback or otherwise non-public address.';
const METADATA = 'must not point at a cloud metadata or link-local address.';

/** Something that reads as an IPv4 or an IPv6 address. */
const ANY_ADDRESS = /\d+\.\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f]*:/i;

/** Every spelling of 169.254.169.254 (the cloud metadata address) and of 127.0.0.1 inside an IPv6 address. */
const METADATA_IN_IPV6: [address: string, form: string][] = [
  ['::ffff:a9fe:a9fe', 'IPv4-mapped'],
  ['::ffff:0:a9fe:a9fe', 'IPv4-translated'],
  ['::a9fe:a9fe', 'IPv4-compatible'],
  ['64:ff9b::a9fe:a9fe', 'NAT64, well-known prefix'],
  ['64:ff9b:1::a9fe:a9fe', 'NAT64, local-use prefix'],
  ['64:ff9b:1:a9fe:a9:fe00::', 'NAT64, local-use prefix of a /48 translator'],
  ['2002:a9fe:a9fe::1', '6to4'],
  ['2001:0:a9fe:a9fe::f7f7:fbfb', 'Teredo, as its server'],
  ['2001:0:808:808::5601:5601', 'Teredo, as its client'],
];
const LOOPBACK_IN_IPV6: [address: string, form: string][] = [
  ['::ffff:7f00:1', 'IPv4-mapped'],
  ['::7f00:1', 'IPv4-compatible'],
  ['64:ff9b::7f00:1', 'NAT64, well-known prefix'],
  ['64:ff9b:1::7f00:1', 'NAT64, local-use prefix'],
  ['2002:7f00:1::1', '6to4'],
  ['2001:0:808:808::80ff:fffe', 'Teredo, as its client'],
];

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
    ...LOOPBACK_IN_IPV6.map(([address, form]) => [address, `loopback, ${form}`]),
    ...METADATA_IN_IPV6.map(([address, form]) => [address, `metadata, ${form}`]),
    ['2001:0:a9fe:a9fe::f7f7:fbfb', 'Teredo through a link-local server'],
    ['not-an-address', 'not an address at all'],
  ])('when the address is %s (%s), then it is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8', 'public IPv4'],
    ['93.184.216.34', 'public IPv4'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['64:ff9b::808:808', 'NAT64, as a DNS64 resolver answers for an IPv4-only host'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:808:808::f7f7:fbfb', 'Teredo, server 8.8.8.8 and client 8.8.4.4'],
  ])('when the address is %s (%s), then it is public, as the IPv4 addresses it carries are', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('what an endpoint may be', () => {
  it.each([
    ['http://8.8.8.8/hook', 'must be an https:// URL.'],
    ['ftp://8.8.8.8/hook', 'must be an https:// URL.'],
    ['/relative/hook', 'must be an absolute URL.'],
    ['https://user:secret@8.8.8.8/hook', 'must not contain credentials.'],
    ['https://127.0.0.1/hook', NON_PUBLIC],
    ['https://0x7f.1/hook', NON_PUBLIC],
    ['https://2130706433/hook', NON_PUBLIC],
    ['https://[::1]:8443/hook', NON_PUBLIC],
    ['https://[::127.0.0.1]/hook', NON_PUBLIC],
    ['https://169.254.169.254/latest/meta-data/', METADATA],
    ['https://[::a9fe:a9fe]/latest/meta-data/', METADATA],
    [`https://8.8.8.8/${'a'.repeat(2048)}`, 'must be at most 2048 characters.'],
  ])('when private endpoints are not allowed and the endpoint is %s, then it is refused', (endpoint, problem) => {
    expect(endpointProblem(endpoint, PUBLIC_ONLY)).toBe(problem);
  });

  it.each(LOOPBACK_IN_IPV6)(
    'when private endpoints are not allowed and the endpoint is loopback written as %s (%s), then it is refused without naming an address',
    (address) => {
      const problem = endpointProblem(`https://[${address}]/hook`, PUBLIC_ONLY);
      expect(problem).toBe(NON_PUBLIC);
      expect(problem).not.toMatch(ANY_ADDRESS);
    },
  );

  it('when private endpoints are not allowed, then a public https:// endpoint is taken', () => {
    expect(endpointProblem('https://8.8.8.8/hook', PUBLIC_ONLY)).toBeNull();
    expect(endpointProblem('https://hooks.example.com/suppressions?tenant=7', PUBLIC_ONLY)).toBeNull();
    expect(endpointProblem('https://[64:ff9b::8.8.8.8]/hook', PUBLIC_ONLY)).toBeNull();
  });

  it('when private endpoints are allowed, then http:// and loopback endpoints are taken but other schemes still are not', () => {
    expect(endpointProblem('http://127.0.0.1:8080/hook', PRIVATE_ALLOWED)).toBeNull();
    expect(endpointProblem('https://[::1]/hook', PRIVATE_ALLOWED)).toBeNull();
    expect(endpointProblem('https://[::7f00:1]/hook', PRIVATE_ALLOWED)).toBeNull();
    expect(endpointProblem('ftp://127.0.0.1/hook', PRIVATE_ALLOWED)).toBe('must be an http:// or https:// URL.');
  });
});

describe('cloud metadata addresses, refused even where private endpoints are allowed', () => {
  it.each([
    ['169.254.169.254', 'AWS, Google Cloud, Azure'],
    ['169.254.170.2', 'ECS task credentials'],
    ['fd00:ec2::254', 'AWS over IPv6'],
    ['fd00:ec2:0:0:0:0:0:254', 'AWS over IPv6, written out'],
    ['100.100.100.200', 'Alibaba Cloud'],
    ['::ffff:100.100.100.200', 'Alibaba’s, IPv4-mapped'],
    ['64:ff9b::6464:64c8', 'Alibaba’s, through NAT64'],
    ['fe80::a9fe:a9fe', 'IPv6 link-local'],
    ...METADATA_IN_IPV6,
  ])('when the address is %s (%s), then it is a metadata address', (address) => {
    expect(isMetadataAddress(address)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '10.0.0.5',
    '192.168.1.10',
    '::1',
    'fd00::1',
    '100.100.100.201',
    '8.8.8.8',
    '64:ff9b::808:808',
    'not-an-address',
  ])('when the address is %s, then it is not a metadata address', (address) => {
    expect(isMetadataAddress(address)).toBe(false);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://100.100.100.200/latest/meta-data/',
    'http://169.254.170.2/v2/credentials',
    ...METADATA_IN_IPV6.map(([address]) => `https://[${address}]/computeMetadata/v1/`),
  ])('when private endpoints are allowed and the endpoint is %s, then it is still refused', (endpoint) => {
    expect(endpointProblem(endpoint, PRIVATE_ALLOWED)).toBe(METADATA);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    ...METADATA_IN_IPV6.map(([address]) => `https://[${address}]/latest/meta-data/`),
  ])(
    'when a stored endpoint is the metadata address (%s), then its delivery is refused without a connection, even with private endpoints allowed',
    async (endpoint) => {
      const result = await postDelivery({ endpoint, body: '{}', headers: {}, ...PRIVATE_ALLOWED, timeoutMs: 2000 });

      expect(result).toEqual({
        statusCode: 0,
        response: 'refused: the endpoint is or resolves to a cloud metadata or link-local address',
        durationMs: 0,
      });
    },
  );

  it('when private endpoints are allowed, then a loopback receiver is still delivered to', async () => {
    const server = http.createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await postDelivery({
        endpoint: `http://localhost:${port}/hook`,
        body: '{}',
        headers: {},
        ...PRIVATE_ALLOWED,
      });
      expect(result.statusCode).toBe(204);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('private ranges an operator names in WEBHOOKS_PRIVATE_CIDRS', () => {
  const listed: EndpointPolicy = { allowPrivate: false, privateCidrs: ['10.20.0.0/16', 'fd12:3456::/48'] };

  it.each([
    ['10.20.3.4', 'inside the listed IPv4 range'],
    ['fd12:3456::7', 'inside the listed IPv6 range'],
    ['::ffff:10.20.3.4', 'inside the listed IPv4 range, IPv4-mapped'],
    ['64:ff9b::a14:304', 'inside the listed IPv4 range, through NAT64'],
    ['8.8.8.8', 'public'],
  ])('when the address is %s (%s), then deliveries may go there', (address) => {
    expect(isAllowedAddress(address, listed)).toBe(true);
  });

  it.each([
    ['10.30.0.1', 'private, outside every listed range'],
    ['127.0.0.1', 'loopback'],
    ['fd12:3457::1', 'unique-local, outside the listed IPv6 range'],
    ['::ffff:10.30.0.1', 'outside every listed range, IPv4-mapped'],
    ['2002:a1e:1::1', '6to4 of 10.30.0.1, outside every listed range'],
  ])('when the address is %s (%s), then it is refused', (address) => {
    expect(isAllowedAddress(address, listed)).toBe(false);
  });

  it('when the endpoint is private and in no listed range, then it is refused without naming its address', () => {
    expect(endpointProblem('https://10.30.0.1/hooks', listed)).toBe(NON_PUBLIC);
  });

  it('when the endpoint is in a listed range, then it is taken over https:// only', () => {
    expect(endpointProblem('https://10.20.3.4/hooks', listed)).toBeNull();
    expect(endpointProblem('http://10.20.3.4/hooks', listed)).toBe('must be an https:// URL.');
  });

  it.each([
    ['169.254.0.0/16', '169.254.169.254'],
    ['169.254.0.0/16', '::ffff:169.254.169.254'],
    ['0.0.0.0/0', '64:ff9b::a9fe:a9fe'],
    ['fd00:ec2::/32', 'fd00:ec2::254'],
    ['100.64.0.0/10', '100.100.100.200'],
    ['::/0', 'fe80::1'],
  ])('when %s is listed, then the metadata address %s inside it is still refused', (cidr, address) => {
    expect(isAllowedAddress(address, { allowPrivate: false, privateCidrs: [cidr] })).toBe(false);
  });
});
