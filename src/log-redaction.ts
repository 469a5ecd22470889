interface Secret {
  /** A cheap test that the line may hold one, so that most lines skip the pattern. */
  mayHold: (text: string) => boolean;
  pattern: RegExp;
  replacement: string;
}

/**
 * What no log line may hold, whichever field or message carries it. Applied to every line as it is
 * written, after pino's own path-based redaction of known fields, so that an address or a token
 * that reaches a log some other way (an error's message, a URL, a value logged by a library) is
 * caught too.
 */
const SECRETS: readonly Secret[] = [
  {
    // An address, plain or percent-encoded (`%40`), as it appears in paths, queries and messages.
    mayHold: (text) => text.includes('@') || /%40/i.test(text),
    pattern: /[^\s"'<>()[\]{},;:\\/?&=#@]+(?:@|%40)[^\s"'<>(){},;\\/?&=#@]+/gi,
    replacement: '[email]',
  },
  {
    // This service's API keys.
    mayHold: (text) => text.includes('sl_'),
    pattern: /\bsl_[A-Za-z0-9_-]{16,}/g,
    replacement: '[redacted]',
  },
  {
    // Credentials of any scheme after their scheme name, as in a logged header.
    mayHold: (text) => /Bearer|Basic/i.test(text),
    pattern: /\b(Bearer|Basic)\s+[^\s",}]+/gi,
    replacement: '$1 [redacted]',
  },
];

export function redactSecrets(text: string): string {
  let redacted = text;
  for (const secret of SECRETS) {
    if (secret.mayHold(redacted)) redacted = redacted.replace(secret.pattern, secret.replacement);
  }
  return redacted;
}
