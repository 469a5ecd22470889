import { pino, type Logger } from 'pino';

export type { Logger };

/** Services log to stdout; command-line tools pass `stderr`, so their logs never mix with their output. */
export function createLogger(level: string, destination: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    {
      level,
      base: { service: 'suppression-list' },
      redact: { paths: ['req.headers.authorization', 'token', '*.token'], censor: '[redacted]' },
    },
    pino.destination({ dest: destination === 'stdout' ? 1 : 2, sync: destination === 'stderr' }),
  );
}
