import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'suppression-list' },
    redact: { paths: ['req.headers.authorization', 'token', '*.token'], censor: '[redacted]' },
  });
}
