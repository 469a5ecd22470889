import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logger.js';

export interface CapturedLogs {
  /** The service's own logger (with its redaction), writing into `lines`. */
  logger: Logger;
  /** Every line written so far, as written. */
  lines: string[];
}

/** A logger at `level` whose lines are kept in memory, exactly as they would reach stdout. */
export function captureLogs(level = 'info'): CapturedLogs {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger(level, sink), lines };
}
