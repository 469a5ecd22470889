import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { carriedIPv4Addresses } from './embedded-ipv4.js';

/** Longest endpoint URL taken. */
export const MAX_ENDPOINT_LENGTH = 2048;

/** Which destinations off the public internet endpoints may have; cloud metadata addresses are never among them. */
export interface EndpointPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: every private address, and `http://` too (development and tests). */
  allowPrivate: boolean;
  /** WEBHOOKS_PRIVATE_CIDRS: the private ranges endpoints may be in, over `https://`, as `address/bits`. */
  privateCidrs: readonly string[];
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

function parsed(address: string): Address | null {
  return ipaddr.isValid(address) ? ipaddr.parse(address) : null;
}

/**
 * The addresses a destination is judged by: an IPv6 address that carries IPv4 addresses (mapped,
 * compatible, NAT64, 6to4, Teredo: `embedded-ipv4.ts`) by every one of those, since that is where
 * its packets end up; any other address by itself.
 */
function judgedAddresses(address: Address): Address[] {
  if (address.kind() === 'ipv4') return [address];
  const carried = carriedIPv4Addresses(address as ipaddr.IPv6);
  return carried.length > 0 ? carried : [address];
}

/**
 * Whether an address is on the public internet: ipaddr.js's `unicast`, which leaves out private,
 * loopback, link-local (the cloud metadata address 169.254.169.254 among them), carrier-grade NAT
 * (Alibaba's metadata address), unique-local (AWS's fd00:ec2::254), multicast, reserved and
 * unspecified addresses. An IPv6 address that carries IPv4 addresses is public when they all are.
 */
export function isPublicAddress(address: string): boolean {
  const parsedAddress = parsed(address);
  return parsedAddress !== null && judgedAddresses(parsedAddress).every((entry) => entry.range() === 'unicast');
}

/** Where clouds answer an instance's metadata requests, credentials included, outside link-local ranges. */
const METADATA_ADDRESSES = ['fd00:ec2::254', '100.100.100.200'].map((address) => ipaddr.parse(address).toString());

/**
 * Whether an address is where a cloud serves its instance metadata: any link-local address
 * (169.254.169.254 on AWS, Google Cloud, Azure and others; 169.254.170.2 for ECS tasks; fe80::/10),
 * AWS's fd00:ec2::254 and Alibaba's 100.100.100.200, written plainly or carried in an IPv6 address.
 * Refused even when private endpoints are allowed or inside WEBHOOKS_PRIVATE_CIDRS: those settings
 * are for receivers, and no receiver lives at these.
 */
export function isMetadataAddress(address: string): boolean {
  const parsedAddress = parsed(address);
  if (parsedAddress === null) return false;
  return [parsedAddress, ...judgedAddresses(parsedAddress)].some(
    (entry) => entry.range() === 'linkLocal' || METADATA_ADDRESSES.includes(entry.toString()),
  );
}

type Range = [Address, number];

// Parsed once per list: the worker's and the API's lists come from the one parsed configuration.
const parsedRanges = new WeakMap<readonly string[], Range[]>();

function rangesOf(cidrs: readonly string[]): Range[] {
  let ranges = parsedRanges.get(cidrs);
  if (ranges === undefined) {
    ranges = cidrs.map((cidr) => ipaddr.parseCIDR(cidr));
    parsedRanges.set(cidrs, ranges);
  }
  return ranges;
}

function within(address: Address, [network, bits]: Range): boolean {
  if (address.kind() !== network.kind()) return false;
  return address.kind() === 'ipv4'
    ? (address as ipaddr.IPv4).match(network, bits)
    : (address as ipaddr.IPv6).match(network, bits);
}

/**
 * Whether an endpoint may be sent to at this address: never a metadata address; otherwise any
 * address when private endpoints are allowed, else only public ones and those inside
 * WEBHOOKS_PRIVATE_CIDRS (an IPv6 address that carries IPv4 addresses, when each of them is).
 */
export function isAllowedAddress(address: string, policy: EndpointPolicy): boolean {
  const parsedAddress = parsed(address);
  if (parsedAddress === null || isMetadataAddress(address)) return false;
  if (policy.allowPrivate) return true;
  const ranges = rangesOf(policy.privateCidrs);
  return judgedAddresses(parsedAddress).every(
    (entry) => entry.range() === 'unicast' || ranges.some((range) => within(entry, range)),
  );
}

/** The URL's host as an address, when it is one: `[::1]` is `::1`. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ipaddr.isValid(host) ? host : null;
}

// The problems name no address: an API caller would learn from them what the service's network
// calls its own machines.
const METADATA_PROBLEM = 'a cloud metadata or link-local address';
const NON_PUBLIC_PROBLEM = 'a private, loopback or otherwise non-public address';

/**
 * What is wrong with an endpoint as written, as a predicate for a validation message, or null:
 * an absolute `https://` URL (`http://` too when private endpoints are allowed), without
 * credentials (they would end up wherever the endpoint is shown or logged), and not an address
 * the policy refuses.
 */
export function endpointProblem(endpoint: string, policy: EndpointPolicy): string | null {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return `must be at most ${MAX_ENDPOINT_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be an absolute URL.';
  }
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return policy.allowPrivate ? 'must be an http:// or https:// URL.' : 'must be an https:// URL.';
  }
  if (url.username !== '' || url.password !== '') return 'must not contain credentials.';
  const address = literalAddress(url);
  if (address === null) return null;
  if (isMetadataAddress(address)) return `must not point at ${METADATA_PROBLEM}.`;
  if (!isAllowedAddress(address, policy)) return `must not point at ${NON_PUBLIC_PROBLEM}.`;
  return null;
}

/**
 * The problem with the addresses an endpoint's host name resolves to now, or null: every one must
 * be one the policy allows, or a record added later could point the service at its own network, or
 * at the machine's cloud credentials.
 */
export async function resolvedEndpointProblem(endpoint: string, policy: EndpointPolicy): Promise<string | null> {
  const url = new URL(endpoint);
  if (literalAddress(url) !== null) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(url.hostname, { all: true });
  } catch {
    // With private endpoints allowed (development), a name this machine cannot resolve yet is taken:
    // the delivery's own lookup still refuses a metadata address.
    return policy.allowPrivate ? null : `has a host name that does not resolve (${url.hostname}).`;
  }
  if (addresses.every((entry) => isAllowedAddress(entry.address, policy))) return null;
  return `has a host name that resolves to ${policy.allowPrivate ? METADATA_PROBLEM : NON_PUBLIC_PROBLEM}.`;
}

/**
 * An endpoint refused at delivery: it resolved to, or is, an address it may not be sent to. The
 * message is the attempt's record, which the customer reads: it names no address.
 */
export class UnsafeAddressError extends Error {
  readonly code = 'EUNSAFEADDRESS';
  constructor(address: string) {
    super(
      `refused: the endpoint is or resolves to ${isMetadataAddress(address) ? METADATA_PROBLEM : NON_PUBLIC_PROBLEM}`,
    );
    this.name = 'UnsafeAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for `http.request` that refuses a host with any address the policy refuses. It runs
 * when the socket connects, so the address checked is the address used: a host that resolved to a
 * public address when the webhook was created and to a private one now (DNS rebinding) is refused.
 */
export function guardedLookup(policy: EndpointPolicy): Lookup {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => !isAllowedAddress(entry.address, policy));
      if (refused) return callback(new UnsafeAddressError(refused.address), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** The endpoint's host, if it is written as an address the policy refuses: such a host is never looked up. */
export function refusedLiteral(endpoint: URL, policy: EndpointPolicy): string | null {
  const address = literalAddress(endpoint);
  return address !== null && !isAllowedAddress(address, policy) ? address : null;
}
