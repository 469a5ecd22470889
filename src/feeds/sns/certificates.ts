import { X509Certificate } from 'node:crypto';
import { FeedUnavailableError, FeedVerificationError } from '../feed-errors.js';
import { isSnsUrl } from './hosts.js';

export interface SnsClientOptions {
  /** `host:port`s trusted besides SNS's own hosts (`FEEDS_SNS_EXTRA_CERT_HOSTS`); plain HTTP only on loopback. */
  extraHosts?: readonly string[];
  /** How long one request to SNS may take. Default 10 s. */
  timeoutMs?: number;
}

/** What the feeds ask of SNS itself: its signing certificates, and confirming a subscription. */
export interface SnsClient {
  /** The certificate at this URL, fetched once and kept while it is valid. */
  certificate(url: string): Promise<X509Certificate>;
  /** Confirms a subscription by requesting its `SubscribeURL`. */
  confirmSubscription(url: string): Promise<void>;
}

const MAX_CERTIFICATE_BYTES = 64 * 1024;
// SNS signs with a handful of certificates; a bound keeps forged URLs on SNS hosts from growing it.
const MAX_CACHED_CERTIFICATES = 50;

export function createSnsClient(options: SnsClientOptions = {}): SnsClient {
  const extraHosts = options.extraHosts ?? [];
  const timeoutMs = options.timeoutMs ?? 10_000;
  const cache = new Map<string, Promise<X509Certificate>>();

  async function get(url: string, what: string): Promise<Response> {
    let response: Response;
    try {
      // No redirects: a redirect could lead away from the hosts checked here.
      response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new FeedUnavailableError(`SNS did not answer the request for ${what}`, { cause: error });
    }
    if (response.status >= 500) {
      throw new FeedUnavailableError(`SNS answered ${response.status} to the request for ${what}`);
    }
    return response;
  }

  async function download(url: string): Promise<X509Certificate> {
    const response = await get(url, 'the signing certificate');
    if (!response.ok) {
      throw new FeedVerificationError(
        'certificate',
        `the signing certificate could not be fetched (${response.status})`,
      );
    }
    const body = Buffer.from(await response.arrayBuffer());
    try {
      if (body.length > MAX_CERTIFICATE_BYTES) throw new Error('too large');
      return new X509Certificate(body);
    } catch {
      throw new FeedVerificationError('certificate', 'the signing certificate is not an X.509 certificate');
    }
  }

  return {
    async certificate(url) {
      if (!isSnsUrl(url, extraHosts)) {
        throw new FeedVerificationError('certificate', 'the signing certificate URL is not on an SNS host');
      }
      let pending = cache.get(url);
      if (!pending) {
        if (cache.size >= MAX_CACHED_CERTIFICATES) cache.delete(cache.keys().next().value as string);
        pending = download(url);
        cache.set(url, pending);
        // A failed download is tried again by the next message, not remembered.
        pending.catch(() => cache.delete(url));
      }
      const certificate = await pending;
      const now = Date.now();
      if (now < Date.parse(certificate.validFrom) || now > Date.parse(certificate.validTo)) {
        cache.delete(url);
        throw new FeedVerificationError('certificate', 'the signing certificate is not valid now');
      }
      return certificate;
    },
    async confirmSubscription(url) {
      if (!isSnsUrl(url, extraHosts)) {
        throw new FeedVerificationError('certificate', 'the SubscribeURL is not on an SNS host');
      }
      const response = await get(url, 'the subscription confirmation');
      await response.arrayBuffer();
      if (!response.ok) {
        throw new FeedUnavailableError(`SNS answered ${response.status} to the subscription confirmation`);
      }
    },
  };
}
