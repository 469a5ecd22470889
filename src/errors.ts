/**
 * Every error the API can answer with. `name` is the stable code clients match on (the shape
 * Resend's SDKs parse); `statusCode` is the HTTP status it travels with.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
  }

  toJSON(): { statusCode: number; name: string; message: string } {
    return { statusCode: this.statusCode, name: this.code, message: this.message };
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super(422, 'validation_error', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Suppression not found.') {
    super(404, 'not_found', message);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(
    method: string,
    readonly allowed: readonly string[],
  ) {
    super(405, 'method_not_allowed', `Method ${method} is not allowed here. Allowed: ${allowed.join(', ')}.`);
  }
}

export class MissingApiKeyError extends AppError {
  constructor() {
    super(
      401,
      'missing_api_key',
      'Missing API key in the authorization header. Use `Authorization: Bearer <API_KEY>`.',
    );
  }
}

export class RestrictedApiKeyError extends AppError {
  constructor() {
    super(401, 'restricted_api_key', 'This API key is restricted to sending emails. Use a key with full access.');
  }
}

export class InvalidApiKeyError extends AppError {
  constructor() {
    super(403, 'invalid_api_key', 'API key is invalid.');
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limit: string) {
    super(413, 'payload_too_large', `The request body is larger than the limit of ${limit}.`);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'The service is temporarily unavailable. Try again shortly.', options?: ErrorOptions) {
    super(503, 'service_unavailable', message, options);
  }
}

export class InternalServerError extends AppError {
  constructor() {
    super(500, 'internal_server_error', 'An unexpected error occurred.');
  }
}

export class RateLimitExceededError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limit_exceeded', `Too many requests. Retry after ${retryAfterSeconds} second(s).`);
  }
}

export class InvalidIdempotencyKeyError extends AppError {
  constructor() {
    super(400, 'invalid_idempotency_key', 'The `Idempotency-Key` header must be between 1 and 256 characters.');
  }
}

export class InvalidIdempotentRequestError extends AppError {
  constructor() {
    super(409, 'invalid_idempotent_request', 'This `Idempotency-Key` was already used with a different request.');
  }
}

export class ConcurrentIdempotentRequestsError extends AppError {
  constructor() {
    super(
      409,
      'concurrent_idempotent_requests',
      'A request with this `Idempotency-Key` is still in progress. Retry once it has finished.',
    );
  }
}
