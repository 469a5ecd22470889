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
