import type { NextFunction, Request, Response } from 'express';
import { errorMessage } from '../../src/error-codes.js';
import { AppError, MethodNotAllowedError, RateLimitExceededError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { loggableQuery } from './request-logging.js';
import { routePatternOf } from './route-pattern.js';

/**
 * An error of the request rather than of the service, as the body parser and its decompression
 * raise them (http-errors): a 4xx status, marked safe to show.
 */
interface ClientError extends Error {
  status: number;
  expose: true;
  type?: string;
  errno?: number;
}

function isClientError(error: unknown): error is ClientError {
  if (!(error instanceof Error)) return false;
  const { status, expose } = error as Partial<ClientError>;
  return expose === true && typeof status === 'number' && status >= 400 && status < 500;
}

function toAppError(error: unknown, bodyLimit: string): AppError | null {
  if (error instanceof AppError) return error;
  if (isClientError(error)) {
    if (error.type === 'entity.too.large') {
      // The parser's own limit where it names one (a mail message's is not the JSON bodies').
      const { limit } = error as { limit?: unknown };
      const named = typeof limit === 'number' && limit % 2 ** 20 === 0 ? `${limit / 2 ** 20}mb` : bodyLimit;
      return new AppError('payload_too_large', errorMessage('payload_too_large', { limit: named }));
    }
    if (error.type === 'entity.parse.failed') {
      return new AppError('validation_error', 'The request body must be a valid JSON object.');
    }
    // zlib's errors carry a numeric errno: a gzip, deflate or br body that does not decode.
    if (typeof error.errno === 'number') {
      return new AppError('validation_error', 'The request body does not decode as its `Content-Encoding` says.');
    }
    return new AppError('validation_error', `The request body could not be read: ${error.message}.`);
  }
  // The router's percent-decoding of a path parameter.
  if (error instanceof URIError) return new AppError('validation_error', 'The path is not validly percent-encoded.');
  return null;
}

/** The one place where errors become responses: `{statusCode, name, message}`, never internals. */
export function errorHandler(logger: Logger, bodyLimit: string) {
  return function handleError(error: unknown, req: Request, res: Response, next: NextFunction): void {
    if (res.headersSent) {
      next(error);
      return;
    }
    let appError = toAppError(error, bodyLimit);
    if (appError === null) {
      logger.error(
        { err: error, method: req.method, route: routePatternOf(req), query: loggableQuery(req.originalUrl) },
        'unhandled error',
      );
      appError = new AppError('internal_server_error');
    } else if (appError.statusCode >= 500) {
      logger.warn({ err: appError.cause ?? appError, method: req.method }, appError.message);
    }
    if (appError instanceof MethodNotAllowedError) res.set('Allow', appError.allowed.join(', '));
    if (appError instanceof RateLimitExceededError) res.set('retry-after', String(appError.retryAfterSeconds));
    res.status(appError.statusCode).json(appError.toJSON());
  };
}

export function notFound(req: Request): never {
  throw new AppError('not_found', `No route for ${req.method} ${req.path}.`);
}

export function methodNotAllowed(...allowed: string[]) {
  return (req: Request): never => {
    throw new MethodNotAllowedError(req.method, allowed);
  };
}
