import { describe, expect, it } from 'vitest';
import { endpointProblem, isPublicAddress } from '../../src/webhooks/endpoint-safety.js';

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
      'must not point at a private, loopback, link-local or reserved address (169.254.169.254).',
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
