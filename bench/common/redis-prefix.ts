import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A BullMQ key prefix no other run, test or service uses, so a run starts from an empty queue. */
export function freshPrefix(label: string): string {
  return `bench-${label}-${randomBytes(4).toString('hex')}`;
}

/**
 * Deletes every key under a prefix. `obliterate` removes the queue's jobs, but a run may stop
 * half-way (deadline, crash of a step), and the leftovers must not accumulate across runs.
 */
export async function deletePrefix(connection: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await connection.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length > 0) deleted += await connection.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  return deleted;
}
