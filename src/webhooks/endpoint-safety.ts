import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Longest endpoint URL taken. */
export const MAX_ENDPOINT_LENGTH = 2048;

/**
 * Whether an address is on the public internet: ipaddr.js's `unicast`, which leaves out private,
 * loopback, link-local (the cloud metadata address 169.254.169.254 among them), carrier-grade NAT
 * (Alibaba's metadata address), unique-local (AWS's fd00:ec2::254), multicast, reserved and
 * unspecified addresses. An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The URL's host as an address, when it is one: `[::1]` is `::1`. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ipaddr.isValid(host) ? host : null;
}

/**
 * What is wrong with an endpoint as written, as a predicate for a validation message, or null:
 * an absolute `https://` URL (`http://` too when private endpoints are allowed), without
 * credentials (they would end up wherever the endpoint is shown or logged), and, unless private
 * endpoints are allowed, not an address off the public internet.
 */
export function endpointProblem(endpoint: string, allowPrivate: boolean): string | null {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return `must be at most ${MAX_ENDPOINT_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be an absolute URL.';
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return allowPrivate ? 'must be an http:// or https:// URL.' : 'must be an https:// URL.';
  }
  if (url.username !== '' || url.password !== '') return 'must not contain credentials.';
  const address = literalAddress(url);
  if (!allowPrivate && address !== null && !isPublicAddress(address)) {
    return `must not point at a private, loopback, link-local or reserved address (${address}).`;
  }
  return null;
}

/**
 * The problem with the addresses an endpoint's host name resolves to now, or null: every one must
 * be public, or a record added later could point the service at its own network.
 */
export async function resolvedEndpointProblem(endpoint: string): Promise<string | null> {
  const url = new URL(endpoint);
  if (literalAddress(url) !== null) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(url.hostname, { all: true });
  } catch {
    return `has a host name that does not resolve (${url.hostname}).`;
  }
  const refused = addresses.find((entry) => !isPublicAddress(entry.address));
  if (refused) {
    return `must not resolve to a private, loopback, link-local or reserved address (${url.hostname} is ${refused.address}).`;
  }
  return null;
}

/** An endpoint refused at delivery: it resolved to, or is, an address off the public internet. */
export class UnsafeAddressError extends Error {
  readonly code = 'EUNSAFEADDRESS';
  constructor(host: string, address: string) {
    super(`refused: ${host} resolves to ${address}, which is not a public address`);
    this.name = 'UnsafeAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses a host with any non-public address. It runs when the
 * socket connects, so the address checked is the address used: a host that resolved to a public
 * address when the webhook was created and to a private one now (DNS rebinding) is refused.
 */
export function publicOnlyLookup(
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: LookupCallback,
): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) return callback(new UnsafeAddressError(hostname, refused.address), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}

/** The endpoint's host, if it is written as an address that is not public: such a host is never looked up. */
export function refusedLiteral(endpoint: URL): string | null {
  const address = literalAddress(endpoint);
  return address !== null && !isPublicAddress(address) ? address : null;
}
