/**
 * The numbers the API promises, named once: the request schemas enforce them, the OpenAPI document
 * states them, and the client library splits its calls by them.
 */

/** Entries one page of a list holds at most, and when `limit` is not given. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** Addresses (or ids) one `POST /suppressions/batch/add` or `/batch/remove` takes. */
export const MAX_BATCH_ITEMS = 100;

/** Addresses one send-time check (`POST /suppressions/check`) may ask about. */
export const MAX_CHECK_ITEMS = 1000;

/** Bounces one `POST /bounces/classify` takes. */
export const MAX_CLASSIFY_ITEMS = 1000;

/**
 * The longest text of each field of a bounce `POST /bounces/classify` reads. A longer diagnostic is
 * cut to its length rather than refused, as the event schema cuts it; any other longer field is refused.
 */
export const CLASSIFY_FIELD_LENGTHS = {
  status: 32,
  reply_code: 16,
  diagnostic: 2000,
  type: 100,
  sub_type: 100,
  provider: 64,
  remote_mta: 255,
} as const;

/** The most bytes JSON spends on one UTF-16 unit of a string: a `\uXXXX` escape. */
const JSON_BYTES_PER_UNIT = 6;
/** Room for a pretty-printed body: a line break and its indentation before each field and brace. */
const INDENTATION_PER_LINE = 32;
const MIB = 2 ** 20;

const CLASSIFY_FIELDS = Object.entries(CLASSIFY_FIELD_LENGTHS);
/** One bounce at its largest: each `"field":"…"` with every unit escaped, the commas, the braces and the comma after it. */
const LARGEST_BOUNCE_BYTES =
  CLASSIFY_FIELDS.reduce((bytes, [field, length]) => bytes + `"${field}":""`.length + length * JSON_BYTES_PER_UNIT, 0) +
  (CLASSIFY_FIELDS.length - 1) +
  '{},'.length;
/** Its lines when pretty-printed: one per field and one per brace. */
const LARGEST_BOUNCE_LINES = CLASSIFY_FIELDS.length + 2;

/**
 * The body limit of `POST /bounces/classify`, in MiB: the documented maximum, 1,000 bounces with
 * every field at its longest and every character written as a `\uXXXX` escape (as a client that
 * escapes all non-ASCII text writes a Japanese diagnostic), indented, rounded up to a whole MiB, so
 * that whatever a client sends within the documented limits is read, and a larger body answers 413.
 */
export const CLASSIFY_BODY_LIMIT_MIB = Math.ceil(
  (MAX_CLASSIFY_ITEMS * (LARGEST_BOUNCE_BYTES + LARGEST_BOUNCE_LINES * INDENTATION_PER_LINE) +
    '{"bounces":[]}'.length) /
    MIB,
);

/** The longest period a bounce summary covers: its days are one row each. */
export const SUMMARY_MAX_DAYS = 90;

/** Recipient domains a bounce summary lists by their `sender_blocked` bounces. */
export const SUMMARY_TOP_DOMAINS = 10;

/** The longest reason a removal may give; it is kept in the entry's history. */
export const MAX_REASON_LENGTH = 500;

/** Bounce and complaint events one `POST /events` takes. */
export const MAX_POSTED_EVENTS = 1000;

/** The bounds of an account's settings (`PATCH /settings/suppressions`). */
export const SOFT_BOUNCE_THRESHOLD = { min: 2, max: 100 } as const;
export const SOFT_BOUNCE_WINDOW_DAYS = { min: 1, max: 365 } as const;
export const EXPIRE_AFTER_DAYS = { min: 1, max: 3650 } as const;
