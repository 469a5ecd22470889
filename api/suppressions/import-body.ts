import { Transform, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Request } from 'express';
import { errorMessage } from '../../src/error-codes.js';
import { AppError } from '../../src/errors.js';
import type { ListFormat } from '../../src/lists/list-format.js';

/** The largest list an import takes, decoded. */
export const IMPORT_LIMIT_BYTES = 100 * 1024 * 1024;
export const IMPORT_LIMIT = '100mb';

/** The body grew past the limit while it was read. */
export class ImportTooLargeError extends Error {
  override name = 'ImportTooLargeError';

  constructor() {
    super(`the list is larger than the limit of ${IMPORT_LIMIT}; the lines before the limit were queued`);
  }
}

const FORMAT_BY_TYPE: Readonly<Record<string, ListFormat>> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/comma-separated-values': 'csv',
  'application/octet-stream': 'csv',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  'application/x-jsonlines': 'ndjson',
  'application/jsonlines': 'ndjson',
  'text/plain': 'txt',
};

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The format of an import: `format` when given, else the one its `Content-Type` names, else CSV
 * (which also reads one address per line). A form upload or a type that is no list is refused.
 */
export function importFormat(req: Request, given: ListFormat | undefined): ListFormat {
  const type = (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.startsWith('multipart/')) {
    throw new AppError(
      'validation_error',
      'An import is the file itself as the request body, not a form: send it with `Content-Type: text/csv`, `application/x-ndjson` or `text/plain`.',
    );
  }
  if (given) return given;
  if (type === '') return 'csv';
  const format = FORMAT_BY_TYPE[type];
  if (!format) {
    throw new AppError(
      'validation_error',
      `\`Content-Type\` ${JSON.stringify(type)} is not a list format: send text/csv, application/x-ndjson or text/plain, or give \`format\`.`,
    );
  }
  return format;
}

/**
 * The request body as a stream of the list's bytes: decoded as its `Content-Encoding` says, and
 * failing with ImportTooLargeError once past the limit. A declared length over the limit, or an
 * encoding this service does not decode, is refused before anything is read.
 */
export function importBody(req: Request, limitBytes = IMPORT_LIMIT_BYTES): Readable {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const decoder = encoding === 'identity' ? undefined : DECODERS[encoding];
  if (encoding !== 'identity' && !decoder) {
    throw new AppError(
      'validation_error',
      `\`Content-Encoding\` ${JSON.stringify(encoding)} is not supported: send gzip, deflate, br or none.`,
    );
  }
  const declared = Number(req.get('content-length'));
  if (decoder === undefined && Number.isFinite(declared) && declared > limitBytes) {
    throw new AppError('payload_too_large', errorMessage('payload_too_large', { limit: IMPORT_LIMIT }));
  }
  let total = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > limitBytes) done(new ImportTooLargeError());
      else done(null, chunk);
    },
  });
  // Errors (the upload cut short, a body that does not decode, the limit) reach the reader through
  // the last stream. The request itself is left whole, so the error can still be answered on it.
  const fail = (error: Error): void => {
    if (!limited.destroyed) limited.destroy(error);
  };
  req.on('error', fail);
  req.on('close', () => {
    if (!req.complete) fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
  });
  limited.on('error', () => req.unpipe());
  if (decoder) {
    const decoding = decoder();
    decoding.on('error', fail);
    req.pipe(decoding).pipe(limited);
  } else {
    req.pipe(limited);
  }
  return limited;
}
