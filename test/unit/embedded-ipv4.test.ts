import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { carriedIPv4Addresses } from '../../src/webhooks/embedded-ipv4.js';

function carried(address: string): string[] {
  return carriedIPv4Addresses(ipaddr.IPv6.parse(address)).map((ipv4) => ipv4.toString());
}

describe('the IPv4 addresses an IPv6 address carries', () => {
  it.each([
    ['::ffff:169.254.169.254', 'IPv4-mapped', ['169.254.169.254']],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated (RFC 6145)', ['169.254.169.254']],
    ['::7f00:1', 'IPv4-compatible, as a URL writes ::127.0.0.1', ['127.0.0.1']],
    ['::a9fe:a9fe', 'IPv4-compatible', ['169.254.169.254']],
    ['64:ff9b::a9fe:a9fe', 'NAT64, the well-known prefix', ['169.254.169.254']],
    ['2002:a9fe:a9fe::1', '6to4', ['169.254.169.254']],
    ['2001:0:808:808::80ff:fffe', 'Teredo: the server, then the client inverted', ['8.8.8.8', '127.0.0.1']],
  ])('when the address is %s (%s), then it carries %j', (address, _form, expected) => {
    expect(carried(address)).toEqual(expected);
  });

  it('when the address is in the NAT64 local-use prefix, then every place RFC 6052 allows after a /48 to /96 is carried', () => {
    expect(carried('64:ff9b:1::a9fe:a9fe')).toEqual(['0.0.0.0', '0.0.0.0', '0.0.0.169', '169.254.169.254']);
    expect(carried('64:ff9b:1:a9fe:a9:fe00::')).toEqual(['169.254.169.254', '254.169.254.0', '169.254.0.0', '0.0.0.0']);
  });

  it.each([
    ['::', 'IPv6’s unspecified address'],
    ['::1', 'IPv6’s loopback'],
    ['2606:4700:4700::1111', 'a public IPv6 address'],
    ['fd00:ec2::254', 'a unique-local address'],
    ['2001:db8::a9fe:a9fe', 'the documentation prefix, not Teredo'],
  ])('when the address is %s (%s), then it carries none', (address) => {
    expect(carried(address)).toEqual([]);
  });
});
