/** A provider's request as received: its headers (lower-case names) and its body's raw bytes. */
export interface FeedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
