/**
 * The API refused the request for a reason a retry cannot change: a revoked or unknown key (403
 * `invalid_api_key`), a key without the right (401), a request it finds invalid (422). `code` is the
 * `name` of the API's `{statusCode, name, message}` answer; `message` is its message.
 */
export class SuppressionApiError extends Error {
  override readonly name = 'SuppressionApiError';

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The addresses could not be checked: the service kept failing (5xx, 429, network errors) until the
 * call's time budget was spent, or it answered something that is not a check result. Nothing of the
 * call may be sent on: the caller should defer the send and try again later. `cause` is the last
 * failure; `attempts` counts the requests made for the part of the call that failed.
 */
export class SuppressionCheckUnavailableError extends Error {
  override readonly name = 'SuppressionCheckUnavailableError';

  constructor(
    message: string,
    readonly attempts: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
