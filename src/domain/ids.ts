import { getRandomValues } from 'node:crypto';
import { v7 } from 'uuid';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Random bytes drawn 4 KiB at a time: asking the system for 16 bytes per id costs more than the
// rest of making the id, and the event worker makes two ids per event.
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let poolOffset = 0;

function random16(): Uint8Array {
  if (poolOffset + 16 > pool.length) {
    pool = getRandomValues(new Uint8Array(POOL_BYTES));
    poolOffset = 0;
  }
  poolOffset += 16;
  return pool.subarray(poolOffset - 16, poolOffset);
}

// Monotonic within this process, as RFC 9562 suggests: ids made in the same millisecond keep
// counting up from a random start, so their order is the order they were made in.
let lastMs = -Infinity;
let sequence = 0;

/** UUIDv7: time-ordered, so `ORDER BY id DESC` is newest first and an id doubles as a page cursor. */
export function newId(): string {
  const random = random16();
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence =
      (((random[6] ?? 0) & 0x7f) << 24) | ((random[7] ?? 0) << 16) | ((random[8] ?? 0) << 8) | (random[9] ?? 0);
  } else {
    sequence = (sequence + 1) | 0;
    if (sequence === 0) lastMs += 1;
  }
  return v7({ random, msecs: lastMs, seq: sequence });
}

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
