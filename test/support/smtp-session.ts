import net from 'node:net';

/** One reply of an SMTP server: its code and its lines as sent (without CRLF). */
export interface SmtpReply {
  code: number;
  lines: string[];
  /** The text of its lines after the code, joined by newlines. */
  text: string;
}

/** An SMTP reply line: a code of 2xx to 5xx, then a space or a hyphen and printable text, or nothing. */
// eslint-disable-next-line no-control-regex -- control characters are what the pattern refuses
export const REPLY_LINE = /^[2-5][0-9]{2}(?:[ -][^\x00-\x1f\x7f]*)?$/;

/**
 * A client of an SMTP or LMTP server over a plain socket, speaking exactly the bytes a test gives:
 * for pipelining, broken clients and hostile input that a mail library would not send.
 */
export interface SmtpSession {
  /** The greeting, read on open. */
  readonly greeting: SmtpReply;
  /** Writes bytes as they are. */
  write(data: string | Buffer): void;
  /** The next reply; rejects if the server closes first. */
  reply(): Promise<SmtpReply>;
  /** Writes one command line (CRLF added) and reads its reply. */
  command(line: string | Buffer): Promise<SmtpReply>;
  /** Resolves once the server has closed the connection. */
  readonly ended: Promise<void>;
  /** Whether the server has closed it. */
  readonly closed: boolean;
  /** Drops the connection at once, as a client that crashes. */
  destroy(): void;
}

export async function openSmtpSession(port: number, host = '127.0.0.1'): Promise<SmtpSession> {
  const socket = net.connect(port, host);
  const lines: string[] = [];
  let pending = '';
  let closed = false;
  const waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter.resolve();
  };
  const ended = new Promise<void>((resolve) => {
    socket.on('close', () => {
      closed = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error('the server closed the connection'));
      resolve();
    });
  });
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('latin1');
    let end: number;
    while ((end = pending.indexOf('\r\n')) !== -1) {
      lines.push(pending.slice(0, end));
      pending = pending.slice(end + 2);
    }
    wake();
  });

  const nextLine = async (): Promise<string> => {
    while (lines.length === 0) {
      if (closed) throw new Error(`the server closed the connection${pending ? ` after "${pending}"` : ''}`);
      await new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
    }
    return lines.shift() as string;
  };
  const reply = async (): Promise<SmtpReply> => {
    const got: string[] = [];
    for (;;) {
      const line = await nextLine();
      got.push(line);
      if (!/^[0-9]{3}-/.test(line)) break;
    }
    return {
      code: Number(got[0]?.slice(0, 3)),
      lines: got,
      text: got.map((line) => line.slice(4)).join('\n'),
    };
  };

  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const greeting = await reply();
  return {
    greeting,
    write: (data) => socket.write(data),
    reply,
    async command(line) {
      socket.write(Buffer.concat([Buffer.from(line), Buffer.from('\r\n')]));
      return reply();
    },
    ended,
    get closed() {
      return closed;
    },
    destroy: () => socket.destroy(),
  };
}
