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
  return parsedAddress(address).range() === 'unicast';
}

/** An IPv4-mapped IPv6 address is judged as the IPv4 address it carries. */
function parsedAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

/** Where clouds answer an instance's metadata requests, credentials included, outside link-local ranges. */
const METADATA_ADDRESSES = ['fd00:ec2::254', '100.100.100.200'].map((address) => ipaddr.parse(address).toString());

/**
 * Whether an address is where a cloud serves its instance metadata: any link-local address
 * (169.254.169.254 on AWS, Google Cloud, Azure and others; 169.254.170.2 for ECS tasks; fe80::/10),
 * AWS's fd00:ec2::254 and Alibaba's 100.100.100.200. Refused even when private endpoints are
 * allowed: that setting is for loopback and LAN receivers, and no receiver lives at these.
 */
export function isMetadataAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = parsedAddress(address);
  return parsed.range() === 'linkLocal' || METADATA_ADDRESSES.includes(parsed.toString());
}

/** Whether an endpoint may be sent to at this address, under WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS. */
export function isAllowedAddress(address: string, allowPrivate: boolean): boolean {
  return allowPrivate ? !isMetadataAddress(address) : isPublicAddress(address);
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
  if (address !== null && isMetadataAddress(address)) {
    return `must not point at a cloud metadata or link-local address (${address}).`;
  }
  if (!allowPrivate && address !== null && !isPublicAddress(address)) {
    return `must not point at a private, loopback, link-local or reserved address (${address}).`;
  }
  return null;
}

/**
 * The problem with the addresses an endpoint's host name resolves to now, or null: every one must
 * be public (with private endpoints allowed, none a metadata address), or a record added later
 * could point the service at its own network, or at the machine's cloud credentials.
 */
export async function resolvedEndpointProblem(endpoint: string, allowPrivate = false): Promise<string | null> {
  const url = new URL(endpoint);
  if (literalAddress(url) !== null) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(url.hostname, { all: true });
  } catch {
    // With private endpoints allowed (development), a name this machine cannot resolve yet is taken:
    // the delivery's own lookup still refuses a metadata address.
    return allowPrivate ? null : `has a host name that does not resolve (${url.hostname}).`;
  }
  const refused = addresses.find((entry) => !isAllowedAddress(entry.address, allowPrivate));
  if (refused && allowPrivate) {
    return `must not resolve to a cloud metadata or link-local address (${url.hostname} is ${refused.address}).`;
  }
  if (refused) {
    return `must not resolve to a private, loopback, link-local or reserved address (${url.hostname} is ${refused.address}).`;
  }
  return null;
}

/** An endpoint refused at delivery: it resolved to, or is, an address it may not be sent to. */
export class UnsafeAddressError extends Error {
  readonly code = 'EUNSAFEADDRESS';
  constructor(host: string, address: string) {
    const what = isMetadataAddress(address) ? 'a cloud metadata or link-local address' : 'not a public address';
    super(`refused: ${host} resolves to ${address}, which is ${what}`);
    this.name = 'UnsafeAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for `http.request` that refuses a host with any address it may not be sent to (any
 * non-public one; with private endpoints allowed, a metadata address). It runs when the socket
 * connects, so the address checked is the address used: a host that resolved to a public address
 * when the webhook was created and to a private one now (DNS rebinding) is refused.
 */
export function guardedLookup(allowPrivate: boolean): Lookup {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => !isAllowedAddress(entry.address, allowPrivate));
      if (refused) return callback(new UnsafeAddressError(hostname, refused.address), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** The endpoint's host, if it is written as an address it may not be sent to: such a host is never looked up. */
export function refusedLiteral(endpoint: URL, allowPrivate: boolean): string | null {
  const address = literalAddress(endpoint);
  return address !== null && !isAllowedAddress(address, allowPrivate) ? address : null;
}
