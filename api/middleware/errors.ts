import type { NextFunction, Request, Response } from 'express';
import {
  AppError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';

/** Errors raised by Express's body parser carry a `type` and an HTTP status. */
function isBodyParserError(error: unknown): error is Error & { type: string; status: number; limit?: number } {
  return (
    error instanceof Error &&
    typeof (error as { type?: unknown }).type === 'string' &&
    typeof (error as { status?: unknown }).status === 'number'
  );
}

function toAppError(error: unknown, bodyLimit: string): AppError | null {
  if (error instanceof AppError) return error;
  if (isBodyParserError(error)) {
    if (error.type === 'entity.too.large') return new PayloadTooLargeError(bodyLimit);
    if (error.type === 'entity.parse.failed')
      return new ValidationError('The request body must be a valid JSON object.');
    if (error.status < 500) return new ValidationError(`The request body could not be read: ${error.message}.`);
  }
  // The router's percent-decoding of a path parameter.
  if (error instanceof URIError) return new ValidationError('The path is not validly percent-encoded.');
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
      logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
      appError = new InternalServerError();
    } else if (appError.statusCode >= 500) {
      logger.warn({ err: appError.cause ?? appError, method: req.method }, appError.message);
    }
    if (appError instanceof MethodNotAllowedError) res.set('Allow', appError.allowed.join(', '));
    res.status(appError.statusCode).json(appError.toJSON());
  };
}

export function notFound(req: Request): never {
  throw new NotFoundError(`No route for ${req.method} ${req.path}.`);
}

export function methodNotAllowed(...allowed: string[]) {
  return (req: Request): never => {
    throw new MethodNotAllowedError(req.method, allowed);
  };
}
