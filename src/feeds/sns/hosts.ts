/** SNS's own hosts: `sns.<region>.amazonaws.com`, and `.amazonaws.com.cn` in China. */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Whether a URL in an SNS message (its certificate, its subscription link) may be requested: over
 * HTTPS from an SNS host, or from one of the extra `host:port`s configured for tests, which alone may
 * be plain HTTP, and only on loopback.
 */
export function isSnsUrl(raw: string, extraHosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:' && url.port === '' && SNS_HOST.test(url.hostname)) return true;
  if (!extraHosts.includes(url.host)) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}
