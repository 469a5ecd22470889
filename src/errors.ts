import { ERROR_CODES, errorMessage, type ErrorCode, type FixedMessageCode } from './error-codes.js';

/**
 * An error the API answers with: a code of `ERROR_CODES`, which gives its status, and a message
 * (the code's own sentence unless a more precise one is given).
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(code: FixedMessageCode, message?: string, options?: ErrorOptions);
  constructor(code: ErrorCode, message: string, options?: ErrorOptions);
  constructor(
    readonly code: ErrorCode,
    message?: string,
    options?: ErrorOptions,
  ) {
    const spec = ERROR_CODES[code];
    super(message ?? (spec.message as string), options);
    this.name = 'AppError';
    this.statusCode = spec.status;
  }

  toJSON(): { statusCode: number; name: string; message: string } {
    return { statusCode: this.statusCode, name: this.code, message: this.message };
  }
}

/** A 422 naming the field at fault: "`emails[2]` is not a valid email address." */
export function invalidField(field: string, problem: string): AppError {
  return new AppError('validation_error', errorMessage('validation_error', { field, problem }));
}

/** 405: carries the methods the path serves, for the `Allow` header. */
export class MethodNotAllowedError extends AppError {
  constructor(
    method: string,
    readonly allowed: readonly string[],
  ) {
    super('method_not_allowed', errorMessage('method_not_allowed', { method, allowed }));
  }
}

/** 429: carries the wait, for the `retry-after` header. */
export class RateLimitExceededError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limit_exceeded', errorMessage('rate_limit_exceeded', { retryAfterSeconds }));
  }
}

export function isAppError(error: unknown, code?: ErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}
