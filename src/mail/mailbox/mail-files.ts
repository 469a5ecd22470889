import { createReadStream } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { mboxMessages, type ArchivedMessage } from './mbox.js';

/** What a path holds: one message (`.eml`), a maildir, or an mbox archive. */
export type MailFilesKind = 'message' | 'maildir' | 'mbox';

export interface MailFiles {
  kind: MailFilesKind;
  /** The bytes to read, for a progress bar. */
  totalBytes: number;
  /** The messages, each with the bytes read so far once it is read. */
  messages(): AsyncGenerator<ArchivedMessage & { bytesRead: number }>;
}

/** Why a path cannot be read, in plain words. */
function unreadable(file: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : error instanceof Error
          ? error.message
          : String(error);
  return new Error(`cannot read ${file}: ${why}`, { cause: error });
}

async function startsWithFromLine(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(5);
    const { bytesRead } = await handle.read(head, 0, 5, 0);
    return bytesRead === 5 && head.toString('latin1') === 'From ';
  } finally {
    await handle.close();
  }
}

/** The message files of a maildir, `new/` then `cur/`, by name (which starts with the delivery time). */
async function maildirFiles(dir: string): Promise<{ file: string; size: number }[]> {
  const found: { file: string; size: number }[] = [];
  for (const sub of ['new', 'cur']) {
    const names = await readdir(path.join(dir, sub)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw unreadable(path.join(dir, sub), error);
    });
    for (const name of names.filter((each) => !each.startsWith('.')).sort()) {
      const file = path.join(dir, sub, name);
      const info = await stat(file);
      if (info.isFile()) found.push({ file, size: info.size });
    }
  }
  return found;
}

/**
 * The messages at `target`: a directory with `cur/` or `new/` is a maildir, a file that starts with
 * a `From ` line an mbox archive, any other file one message. A message larger than `maxBytes` is
 * given by its size only, never read whole.
 */
export async function openMailFiles(target: string, maxBytes: number): Promise<MailFiles> {
  const info = await stat(target).catch((error: unknown) => {
    throw unreadable(target, error);
  });
  if (info.isDirectory()) {
    const subs = await readdir(target).catch((error: unknown) => {
      throw unreadable(target, error);
    });
    if (!subs.includes('cur') && !subs.includes('new')) {
      throw new Error(`${target} is a directory but no maildir: it has neither cur/ nor new/`);
    }
    const files = await maildirFiles(target);
    return {
      kind: 'maildir',
      totalBytes: files.reduce((sum, { size }) => sum + size, 0),
      async *messages() {
        let bytesRead = 0;
        for (const { file, size } of files) {
          bytesRead += size;
          yield size > maxBytes ? { raw: null, size, bytesRead } : { raw: await readFile(file), size, bytesRead };
        }
      },
    };
  }
  if (!info.isFile()) throw new Error(`${target} is neither a file nor a directory`);
  const mbox = await startsWithFromLine(target).catch((error: unknown) => {
    throw unreadable(target, error);
  });
  if (!mbox) {
    return {
      kind: 'message',
      totalBytes: info.size,
      async *messages() {
        yield info.size > maxBytes
          ? { raw: null, size: info.size, bytesRead: info.size }
          : { raw: await readFile(target), size: info.size, bytesRead: info.size };
      },
    };
  }
  return {
    kind: 'mbox',
    totalBytes: info.size,
    async *messages() {
      const stream = createReadStream(target);
      let bytesRead = 0;
      const counted = (async function* () {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          bytesRead += chunk.length;
          yield chunk;
        }
      })();
      for await (const message of mboxMessages(counted, maxBytes)) yield { ...message, bytesRead };
    },
  };
}
