/** How an entry got on the list; `unsubscribe` is the recipient's own one-click unsubscribe. */
export const ORIGINS = ['bounce', 'complaint', 'manual', 'unsubscribe'] as const;
export type Origin = (typeof ORIGINS)[number];

/**
 * The origins a sender gives entries, by hand, in an import or by a batch job, and that expire under
 * the account's settings: an unsubscribe is the recipient's, made only through their link, and
 * stands until it is removed.
 */
export const GIVEN_ORIGINS = ['bounce', 'complaint', 'manual'] as const;
export type GivenOrigin = (typeof GIVEN_ORIGINS)[number];
