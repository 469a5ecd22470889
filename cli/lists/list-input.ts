import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export interface ListInput {
  stream: Readable;
  /** Size in bytes and bytes read so far, for a file; unknown for standard input. */
  size?: { total: number; read(): number };
  close(): void;
}

/** A file, opened at once so a wrong path fails before anything is queued; `-` is `stdin`. */
export async function openListInput(file: string, stdin: Readable): Promise<ListInput> {
  if (file === '-') return { stream: stdin, close: () => undefined };
  const handle = await open(file, 'r');
  const { size } = await handle.stat();
  const stream = handle.createReadStream();
  return { stream, size: { total: size, read: () => stream.bytesRead }, close: () => stream.destroy() };
}
