import { v7 } from 'uuid';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UUIDv7: time-ordered, so `ORDER BY id DESC` is newest first and an id doubles as a page cursor. */
export function newId(): string {
  return v7();
}

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
