import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { mboxMessages, type ArchivedMessage } from '../../src/mail/mailbox/mbox.js';

async function read(archive: string, { chunkSize = 1 << 16, maxBytes = 1 << 20 } = {}): Promise<ArchivedMessage[]> {
  const bytes = Buffer.from(archive, 'latin1');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) chunks.push(bytes.subarray(at, at + chunkSize));
  const found: ArchivedMessage[] = [];
  for await (const message of mboxMessages(Readable.from(chunks), maxBytes)) found.push(message);
  return found;
}

const text = (messages: ArchivedMessage[]) => messages.map((message) => message.raw?.toString('latin1') ?? null);

describe('mboxMessages (mboxrd)', () => {
  it('when an archive holds three messages, then each is given without its From line and the blank line after it', async () => {
    const archive = [
      'From a@example.org Thu Nov 26 10:00:00 2026',
      'Subject: one',
      '',
      'first',
      '',
      'From b@example.org Thu Nov 26 10:01:00 2026',
      'Subject: two',
      '',
      'second',
      '',
      '',
      'From MAILER-DAEMON Thu Nov 26 10:02:00 2026',
      'Subject: three',
      '',
      'third',
      '',
    ].join('\n');

    expect(text(await read(archive))).toEqual([
      'Subject: one\n\nfirst\n',
      'Subject: two\n\nsecond\n\n',
      'Subject: three\n\nthird\n',
    ]);
  });

  it('when body lines were quoted as >From and >>From, then one > is taken off each', async () => {
    const archive = 'From x Thu Nov 26 10:00:00 2026\nSubject: q\n\n>From here\n>>From there\n> From not quoted\n\n';

    expect(text(await read(archive))).toEqual(['Subject: q\n\nFrom here\n>From there\n> From not quoted\n']);
  });

  it('when a From line follows a line that is not blank, then it is part of the message, not a new one', async () => {
    const archive = 'From x Thu Nov 26 10:00:00 2026\nSubject: q\n\nwords\nFrom the sea\n\n';

    expect(text(await read(archive))).toEqual(['Subject: q\n\nwords\nFrom the sea\n']);
  });

  it('when the archive has CRLF lines, then the messages keep them', async () => {
    const archive =
      'From x Thu Nov 26 10:00:00 2026\r\nSubject: q\r\n\r\nbody\r\n\r\nFrom y Thu Nov 26 10:00:00 2026\r\nSubject: r\r\n\r\nmore\r\n\r\n';

    expect(text(await read(archive))).toEqual(['Subject: q\r\n\r\nbody\r\n', 'Subject: r\r\n\r\nmore\r\n']);
  });

  it('when the archive arrives a byte at a time, then the messages are the same', async () => {
    const archive =
      'From x Thu Nov 26 10:00:00 2026\nSubject: q\n\n>From a\n\nFrom y Thu Nov 26 10:00:00 2026\nSubject: r\n\nb\n\n';

    expect(await read(archive, { chunkSize: 1 })).toEqual(await read(archive));
    expect(await read(archive, { chunkSize: 1 })).toHaveLength(2);
  });

  it('when text comes before the first From line, then it is no message', async () => {
    expect(text(await read('stray text\n\nFrom x Thu Nov 26 10:00:00 2026\nSubject: q\n\nbody\n'))).toEqual([
      'Subject: q\n\nbody\n',
    ]);
    expect(await read('no archive at all\n')).toEqual([]);
  });

  it('when a message is larger than the limit, then only its size is given and the next one is read whole', async () => {
    const big = 'x'.repeat(200);
    const archive = `From x Thu Nov 26 10:00:00 2026\nSubject: big\n\n${big}\n\nFrom y Thu Nov 26 10:00:00 2026\nSubject: s\n\nsmall\n\n`;

    const messages = await read(archive, { maxBytes: 100, chunkSize: 7 });

    expect(messages).toEqual([
      { raw: null, size: 'Subject: big\n\n'.length + big.length + 1 },
      { raw: Buffer.from('Subject: s\n\nsmall\n'), size: 'Subject: s\n\nsmall\n'.length },
    ]);
  });
});
