import { createHash } from 'node:crypto';

export type CorpusSplit = 'development' | 'held_out';

/** A fixed fifth of the messages, by a hash of the file name: the held-out part. */
export function splitOf(file: string): CorpusSplit {
  const digest = createHash('sha256').update(file).digest();
  return digest.readUInt32BE(0) % 5 === 0 ? 'held_out' : 'development';
}
