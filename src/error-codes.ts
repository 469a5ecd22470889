/**
 * Every error the service answers with, defined once. The key is the code clients match on (the
 * `name` of `{statusCode, name, message}`, the shape Resend's SDKs parse); `status` is the HTTP
 * status it travels with; `when` says when it is answered. `message` is what the body says: a
 * sentence, or, where the answer names something of the request, a function of it, with `example`
 * the values the documentation shows it with. The error classes, the error handler, the OpenAPI
 * document and docs/api.md's table all read this table.
 */
export const ERROR_CODES = {
  invalid_idempotency_key: {
    status: 400,
    when: 'An `Idempotency-Key` header that is empty or longer than 256 characters.',
    message: 'The `Idempotency-Key` header must be between 1 and 256 characters.',
  },
  invalid_payload: {
    status: 400,
    when: 'A feed request whose body is not what its provider sends, or an SNS subscription with raw message delivery on. The message names what is wrong.',
    message: ({ problem }: { problem: string }) => problem,
    example: { problem: 'Not an SNS message: `TopicArn` is required.' },
  },
  missing_api_key: {
    status: 401,
    when: 'No `Authorization` header, or one that is not `Bearer <token>`.',
    message: 'Missing API key in the authorization header. Use `Authorization: Bearer <API_KEY>`.',
  },
  restricted_api_key: {
    status: 401,
    when: 'A `sending_access` key on any endpoint but those it may call (`POST /suppressions/check`, `POST /bounces/classify`, `POST /unsubscribe-links`, `POST /return-paths`, `POST /events`), or to sign in to the console.',
    message: 'This API key is restricted to sending emails. Use a key with full access.',
  },
  unauthorized: {
    status: 401,
    when: '`/metrics` or `/admin/queues` without the token configured for it.',
    message: ({ endpoint, credentials }: { endpoint: string; credentials: string }) =>
      `The ${endpoint} requires ${credentials}.`,
    example: { endpoint: 'metrics endpoint', credentials: '`Authorization: Bearer <METRICS_TOKEN>`' },
  },
  invalid_signature: {
    status: 401,
    when: 'A feed request that is not provably its provider’s: a missing or wrong signature or credentials, a topic the feed does not take, a Mailgun token used before, or a signed timestamp more than 5 minutes off. Nothing of it is queued.',
    message: ({ reason }: { reason: string }) => `The request could not be verified: ${reason}.`,
    example: { reason: 'the signature does not match the body and timestamp' },
  },
  invalid_session: {
    status: 401,
    when: 'A console request (`/console/session`, `/console/api/...`) without a session cookie, or with one that expired, was signed out, or whose key was revoked.',
    message: 'Sign in to the console: the session is missing, expired or was signed out.',
  },
  invalid_api_key: {
    status: 403,
    when: 'An unknown or revoked key, or a token this service cannot have issued.',
    message: 'API key is invalid.',
  },
  invalid_csrf_token: {
    status: 403,
    when: 'A console request that changes something without the session’s `X-CSRF-Token` header, or a console request (a sign-in included) or a change to the queue dashboard whose `Origin` is not the service’s own. Nothing is changed.',
    message: 'The request was refused: it must come from the console’s own page and carry its `X-CSRF-Token` header.',
  },
  not_found: {
    status: 404,
    when: 'An unknown suppression, import, webhook or webhook event (one of another account is unknown too), an unknown or removed feed, or an unknown route. An address without `scope` whose entries are all of named scopes is not found either: the message names those scopes.',
    message: 'Suppression not found.',
  },
  method_not_allowed: {
    status: 405,
    when: 'A known path with a method it does not serve; the `Allow` header lists those it does.',
    message: ({ method, allowed }: { method: string; allowed: readonly string[] }) =>
      `Method ${method} is not allowed here. Allowed: ${allowed.join(', ')}.`,
    example: { method: 'PUT', allowed: ['GET', 'POST'] },
  },
  invalid_idempotent_request: {
    status: 409,
    when: 'An `Idempotency-Key` already used with another method, path or body.',
    message: 'This `Idempotency-Key` was already used with a different request.',
  },
  concurrent_idempotent_requests: {
    status: 409,
    when: 'An `Idempotency-Key` whose first request is still running.',
    message: 'A request with this `Idempotency-Key` is still in progress. Retry once it has finished.',
  },
  complaint_protected: {
    status: 409,
    when: 'A removal (one entry, or a batch) that reaches an entry a complaint put on the list, without `force` and a `reason` (a DELETE’s query parameters `force=true&reason=…`, a batch’s body fields `force: true` and `reason`). Nothing of the request is removed; the message names the entries and says how to force.',
    message: ({ entries, via }: { entries: readonly { id: string; email: string }[]; via: 'query' | 'body' }) => {
      const shown = entries.slice(0, 5).map((entry) => `${entry.email} (${entry.id})`);
      const more = entries.length > shown.length ? ` and ${entries.length - shown.length} more` : '';
      const subject = entries.length === 1 ? 'This entry was' : `${entries.length} entries were`;
      const them = entries.length === 1 ? 'it' : 'them';
      // A DELETE has no body: its caller must be told the query parameters, a batch's the body's fields.
      const how =
        via === 'query'
          ? 'repeat the DELETE with the query parameters `force=true` and `reason` (`?force=true&reason=...`)'
          : 'send `force: true` with a `reason` in the body';
      return `${subject} added because the recipient complained, and nothing was removed: ${shown.join(', ')}${more}. To remove ${them}, ${how}.`;
    },
    example: {
      entries: [{ id: '019cebab-8995-77f7-9262-77a618303564', email: 'complained@example.com' }],
      via: 'query' as const,
    },
  },
  allowlisted: {
    status: 409,
    when: 'An add (one address, or a batch) of an address the account’s allowlist covers. Nothing of the request is added; the message names the address and the rule.',
    message: ({ email, rule }: { email: string; rule: { id: string; value: string } }) =>
      `${email} is on the allowlist (rule ${rule.value}, ${rule.id}) and is never suppressed; nothing was added. Remove the rule first to suppress it.`,
    example: {
      email: 'qa-inbox@example.com',
      rule: { id: '019ceba7-2d4e-7c10-9a3b-5e6f7a8b9c0d', value: 'example.com' },
    },
  },
  return_paths_not_configured: {
    status: 409,
    when: 'A return path, or the secret that makes them, asked of a service with no bounce domain: its operator has not set `BOUNCE_DOMAINS`. A retry answers the same until then.',
    message:
      'Return paths cannot be made: the service has no bounce domain. Its operator must set BOUNCE_DOMAINS (a comma list of the domains that receive bounces, such as bounces.example.com).',
  },
  payload_too_large: {
    status: 413,
    when: 'A body over the limit: 1 MB, 16 MB for `POST /bounces/classify` (what its 1,000 longest bounces take), 10 MB for a mail message, or 100 MB decoded for an import’s list (a declared length over it is refused before anything is read).',
    message: ({ limit }: { limit: string }) => `The request body is larger than the limit of ${limit}.`,
    example: { limit: '1mb' },
  },
  validation_error: {
    status: 422,
    when: 'Any invalid query, path or body: a bad `limit`, cursor, `origin`, address, id, search filter (`email`, `domain`, `created_after`, `created_before`), webhook `endpoint`, `events` or `status`, a setting out of its range or unknown, an event of `POST /events` (one naming an account other than the key’s included), `after` with `before`, `emails` with `ids` or neither, a webhook or settings update that changes nothing, 0 items or more than a request takes, malformed JSON, a body that does not decode as its `Content-Encoding` says, text the database cannot store (NUL, an unpaired UTF-16 surrogate) in a body or an encoded NUL in a path or query, a `reactivation` posted to `POST /events`, an import sent as a form or with a `Content-Type` or `Content-Encoding` it cannot be read as, or bad percent-encoding. The message names the first field at fault; for `POST /events`, every invalid event by its index.',
    message: ({ field, problem }: { field: string; problem: string }) => `\`${field}\` ${problem}`,
    example: { field: 'emails[2]', problem: 'is not a valid email address.' },
  },
  rate_limit_exceeded: {
    status: 429,
    when: 'Over the account’s limit, or too many failed authentications from one client address; `retry-after` says when to retry.',
    message: ({ retryAfterSeconds }: { retryAfterSeconds: number }) =>
      `Too many requests. Retry after ${retryAfterSeconds} second(s).`,
    example: { retryAfterSeconds: 1 },
  },
  internal_server_error: {
    status: 500,
    when: 'Anything else; the body never carries internals.',
    message: 'An unexpected error occurred.',
  },
  service_unavailable: {
    status: 503,
    when: 'PostgreSQL unreachable; Redis, for a request with an `Idempotency-Key`, a feed request, `POST /events` or an import; SNS, for an SES feed request that needs its certificate.',
    message: 'The database is unavailable. Try again shortly.',
  },
} as const satisfies Record<string, ErrorSpec>;

interface ErrorSpec {
  status: number;
  when: string;
  message: string | ((params: never) => string);
  example?: unknown;
}

export type ErrorCode = keyof typeof ERROR_CODES;

type MessageOf<C extends ErrorCode> = (typeof ERROR_CODES)[C]['message'];

/** The codes whose message names something of the request, and so needs its values. */
export type ParameterisedCode = { [C in ErrorCode]: MessageOf<C> extends string ? never : C }[ErrorCode];
export type FixedMessageCode = Exclude<ErrorCode, ParameterisedCode>;
export type MessageParams<C extends ParameterisedCode> = Parameters<MessageOf<C>>[0];

/** The message of a code whose text names something of the request. */
export function errorMessage<C extends ParameterisedCode>(code: C, params: MessageParams<C>): string {
  return (ERROR_CODES[code].message as (params: MessageParams<C>) => string)(params);
}

/** The message the documentation shows for a code: its sentence, or its function on `example`. */
export function exampleMessage(code: ErrorCode): string {
  const spec: ErrorSpec = ERROR_CODES[code];
  if (typeof spec.message === 'string') return spec.message;
  return (spec.message as (params: unknown) => string)(spec.example);
}
