import { pino, type DestinationStream, type Logger } from 'pino';
import { redactSecrets } from './log-redaction.js';
import { traceLogFields, tracingEnabled } from './tracing/tracing.js';

export type { Logger };

/** Credentials never reach a log line, wherever a caller puts them. */
const REDACT_PATHS = [
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

/**
 * Services log to stdout; command-line tools pass `stderr`, so their logs never mix with their
 * output. Known credential fields are censored by path, and every finished line then passes
 * `redactSecrets`, so that no address or token is written whichever field carries it. A line
 * written inside a traced request or job carries its `trace_id` and `span_id`.
 */
export function createLogger(level: string, destination: 'stdout' | 'stderr' | DestinationStream = 'stdout'): Logger {
  return pino(
    {
      level,
      base: { service: 'suppression-list' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: { streamWrite: redactSecrets },
      // Only in a process that traces (its SDK started before its logger): otherwise a line costs nothing more.
      ...(tracingEnabled() ? { mixin: traceLogFields } : {}),
    },
    typeof destination === 'string'
      ? pino.destination({ dest: destination === 'stdout' ? 1 : 2, sync: destination === 'stderr' })
      : destination,
  );
}
