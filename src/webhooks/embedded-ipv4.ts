import ipaddr from 'ipaddr.js';

/** An IPv6 prefix whose addresses carry IPv4 addresses, and where in the 16 bytes each one sits. */
interface Carrier {
  prefix: [ipaddr.IPv6, number];
  /** Each carried IPv4 address as the indexes of its four bytes, and the mask its bits are XORed with. */
  layouts: readonly { bytes: readonly number[]; xor?: number }[];
}

const LAST_32_BITS = { bytes: [12, 13, 14, 15] };

/**
 * RFC 6052's places for an IPv4 address after a translator prefix of each length; bits 64 to 71
 * (byte 8) are always left out.
 */
const RFC_6052 = {
  48: { bytes: [6, 7, 9, 10] },
  56: { bytes: [7, 9, 10, 11] },
  64: { bytes: [9, 10, 11, 12] },
  96: LAST_32_BITS,
} as const;

const carrier = (cidr: string, layouts: Carrier['layouts']): Carrier => ({
  prefix: ipaddr.IPv6.parseCIDR(cidr),
  layouts,
});

const CARRIERS: readonly Carrier[] = [
  // IPv4-mapped (::ffff:0:0/96) and IPv4-translated (RFC 6145, ::ffff:0:0:0/96).
  carrier('::ffff:0:0/96', [LAST_32_BITS]),
  carrier('::ffff:0:0:0/96', [LAST_32_BITS]),
  // IPv4-compatible (deprecated by RFC 4291, yet some stacks and translators still route it to the IPv4 address).
  carrier('::/96', [LAST_32_BITS]),
  // NAT64's well-known prefix (RFC 6052).
  carrier('64:ff9b::/96', [LAST_32_BITS]),
  // NAT64's local-use prefix (RFC 8215): the translator's prefix may be any length from /48, so
  // every place the IPv4 address could sit is taken as carried.
  carrier('64:ff9b:1::/48', [RFC_6052[48], RFC_6052[56], RFC_6052[64], RFC_6052[96]]),
  // 6to4 (RFC 3056): the relay's IPv4 address is bits 16 to 48.
  carrier('2002::/16', [{ bytes: [2, 3, 4, 5] }]),
  // Teredo (RFC 4380): the server's IPv4 address is bits 32 to 64, the client's the last 32 bits, inverted.
  carrier('2001::/32', [{ bytes: [4, 5, 6, 7] }, { bytes: [12, 13, 14, 15], xor: 0xff }]),
];

/** `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones. */
const IPV6_OWN = [ipaddr.parse('::').toString(), ipaddr.parse('::1').toString()];

/**
 * The IPv4 addresses an IPv6 address carries, by the translation or tunnel its prefix names
 * (IPv4-mapped and -translated, IPv4-compatible, NAT64, 6to4, Teredo); none for any other address.
 * A packet sent to such an address ends up at, or is relayed through, those IPv4 addresses.
 */
export function carriedIPv4Addresses(address: ipaddr.IPv6): ipaddr.IPv4[] {
  if (IPV6_OWN.includes(address.toString())) return [];
  const found = CARRIERS.find((entry) => address.match(entry.prefix));
  if (!found) return [];
  const bytes = address.toByteArray();
  return found.layouts.map(
    (layout) => new ipaddr.IPv4(layout.bytes.map((index) => (bytes[index] as number) ^ (layout.xor ?? 0))),
  );
}
