/**
 * Who or what made a record of an address's history: an API key or a console session (by the key
 * id), a provider feed (by its id), a producer on the events or batches queue (the import, when it
 * was one), a recipient's unsubscribe link, or the service itself (expiry, a reclassification run).
 */
export const ACTOR_TYPES = ['api_key', 'console', 'feed', 'queue', 'unsubscribe_link', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export interface Actor {
  type: ActorType;
  /** The key, feed, import or run; null where there is none to name. */
  id: string | null;
}
