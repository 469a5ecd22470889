import type { Readable } from 'node:stream';

export type ReadMessage =
  | { outcome: 'complete'; raw: Buffer }
  /** Over the limit: its bytes past the limit were read and dropped, never held. */
  | { outcome: 'oversized'; bytes: number }
  /** The connection closed before the end of DATA. */
  | { outcome: 'aborted' };

/**
 * Reads a message's DATA into one buffer of at most `maxBytes`; the rest of a larger one is drained
 * so that the client reaches the end and hears the refusal.
 */
export function readMessage(stream: Readable, maxBytes: number): Promise<ReadMessage> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    stream.once('end', () =>
      resolve(bytes > maxBytes ? { outcome: 'oversized', bytes } : { outcome: 'complete', raw: Buffer.concat(chunks) }),
    );
    // A stream destroyed without an error emits only 'close'; after 'end' this changes nothing.
    stream.once('error', () => resolve({ outcome: 'aborted' }));
    stream.once('close', () => resolve({ outcome: 'aborted' }));
  });
}
