import { pino, type Logger } from 'pino';

export type { Logger };

/** Credentials never reach a log line, wherever a caller puts them. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'authorization',
  'cookie',
  'token',
  'password',
  '*.token',
  '*.password',
  '*.apiKey',
];

/** Services log to stdout; command-line tools pass `stderr`, so their logs never mix with their output. */
export function createLogger(level: string, destination: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    {
      level,
      base: { service: 'suppression-list' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    pino.destination({ dest: destination === 'stdout' ? 1 : 2, sync: destination === 'stderr' }),
  );
}
