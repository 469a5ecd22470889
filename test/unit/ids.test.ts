import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUuid, newId } from '../../src/domain/ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The millisecond timestamp in a UUIDv7's first 48 bits. */
function timestampOf(id: string): number {
  return parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}

describe('newId', () => {
  it('when an id is made, then it is a lower-case version 7 UUID with the RFC variant', () => {
    expect(newId()).toMatch(UUID_V7);
  });

  it('when an id is made, then its timestamp is the current time', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(after);
  });

  it('when many ids are made in a row, then each sorts after the one before and none repeats', () => {
    const ids = Array.from({ length: 10_000 }, () => newId());
    for (let index = 1; index < ids.length; index += 1) {
      expect(ids[index]! > ids[index - 1]!).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
  });
});

describe('isUuid', () => {
  const id = '01890a5d-ac96-774b-bcce-b302099a8057';

  it.each([
    ['a lower-case UUIDv7', id],
    ['an upper-case UUIDv7', id.toUpperCase()],
    ['a mixed-case UUID', '01890A5D-ac96-774B-bcce-B302099A8057'],
    ['a random UUIDv4', randomUUID()],
    ['the nil UUID', '00000000-0000-0000-0000-000000000000'],
  ])('when given %s, then it is accepted', (_, value) => {
    expect(isUuid(value)).toBe(true);
  });

  it('when given a fresh id, then it is accepted', () => {
    expect(isUuid(newId())).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['no hyphens', id.replace(/-/g, '')],
    ['one character short', id.slice(0, -1)],
    ['one character too many', `${id}0`],
    ['a non-hex character', `g${id.slice(1)}`],
    ['braces', `{${id}}`],
    ['a urn prefix', `urn:uuid:${id}`],
    ['a leading space', ` ${id}`],
    ['a trailing newline', `${id}\n`],
    ['a misplaced hyphen', '01890a5da-c96-774b-bcce-b302099a8057'],
    ['an email address', 'user@example.com'],
  ])('when given %s, then it is refused', (_, value) => {
    expect(isUuid(value)).toBe(false);
  });
});
