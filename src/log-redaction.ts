/**
 * What no log line may hold, whichever field or message carries it. Applied to every line as it is
 * written, after pino's own path-based redaction of known fields, so that an address or a token
 * that reaches a log some other way (an error's message, a URL, a value logged by a library) is
 * caught too.
 */
const SECRETS: ReadonlyArray<[pattern: RegExp, replacement: string]> = [
  // An address, plain or percent-encoded (`%40`), as it appears in paths, queries and messages.
  [/[^\s"'<>()[\]{},;:\\/?&=#@]+(?:@|%40)[^\s"'<>()[\]{},;:\\/?&=#@]+/gi, '[email]'],
  // This service's API keys.
  [/\bsl_[A-Za-z0-9_-]{16,}/g, '[redacted]'],
  // Credentials of any scheme after their scheme name, as in a logged header.
  [/\b(Bearer|Basic)\s+[^\s",}]+/gi, '$1 [redacted]'],
];

export function redactSecrets(text: string): string {
  let redacted = text;
  for (const [pattern, replacement] of SECRETS) redacted = redacted.replace(pattern, replacement);
  return redacted;
}
