/**
 * One job id per (account, event): a redelivered event is the same job while BullMQ remembers it.
 * BullMQ job ids may not contain `:`, so the upstream's event id travels base64url-encoded.
 */
export function eventJobId(accountId: string, eventId: string): string {
  return `${accountId.toLowerCase()}.${Buffer.from(eventId, 'utf8').toString('base64url')}`;
}
