import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAIL_RECORD_KINDS, MAX_DIAGNOSTIC_LENGTH, MAX_RECORDS } from '../../src/mail/report/mail-record.js';
import { MailMessageTooLargeError, UnreadableMailMessageError } from '../../src/mail/report/mail-errors.js';
import { DEFAULT_MAX_MESSAGE_BYTES, parseMailMessage } from '../../src/mail/report/parse-mail-message.js';
import type { ParsedMailMessage } from '../../src/mail/report/mail-record.js';
import { hostileMessages } from '../../bench/mail/hostile-messages.js';

/** A parse that ends in a result or one of the parser's own errors, never anything else. */
async function outcome(raw: Uint8Array): Promise<ParsedMailMessage | Error> {
  try {
    return await parseMailMessage(raw);
  } catch (error) {
    if (error instanceof MailMessageTooLargeError || error instanceof UnreadableMailMessageError) return error;
    throw error;
  }
}

function expectWellFormed(parsed: ParsedMailMessage): void {
  expect(parsed.records.length).toBeGreaterThan(0);
  expect(parsed.records.length).toBeLessThanOrEqual(MAX_RECORDS);
  for (const record of parsed.records) {
    expect(MAIL_RECORD_KINDS).toContain(record.kind);
    expect((record.diagnostic ?? '').length).toBeLessThanOrEqual(MAX_DIAGNOSTIC_LENGTH);
  }
  if (parsed.records.some((record) => record.kind === 'not_a_report')) expect(parsed.records).toHaveLength(1);
}

describe('parseMailMessage on hostile input', () => {
  it('when a message is larger than the limit, then it is refused with MailMessageTooLargeError before any reading', async () => {
    await expect(parseMailMessage(Buffer.alloc(DEFAULT_MAX_MESSAGE_BYTES + 1, 97))).rejects.toBeInstanceOf(
      MailMessageTooLargeError,
    );
    await expect(parseMailMessage(Buffer.alloc(2048, 97), { maxBytes: 1024 })).rejects.toThrow(
      /2048 bytes, more than the 1024/,
    );
  });

  it('when MIME parts nest deeper than the limit, then it is refused with UnreadableMailMessageError', async () => {
    const deep = hostileMessages(0).find((message) => message.name.startsWith('nested'));
    await expect(parseMailMessage(deep?.raw as Buffer)).rejects.toBeInstanceOf(UnreadableMailMessageError);
  });

  for (const { name, raw } of hostileMessages(DEFAULT_MAX_MESSAGE_BYTES - 4096)) {
    it(`when a 10 MB message holds ${name}, then it is read or refused with a typed error`, async () => {
      const result = await outcome(raw);
      if (!(result instanceof Error)) expectWellFormed(result);
    });
  }
});

/** mulberry32: a small seeded generator, so every run mutates the same way. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const SAMPLES = new URL('../fixtures/mail/sisimai/', import.meta.url);
const PIECES = [
  '\r\n',
  '\n\n',
  '--',
  'boundary="',
  'Content-Type: multipart/mixed; boundary=x\r\n',
  '=?utf-8?B?',
  '<',
  '@',
  ';',
  ':',
  '\t',
  '5.1.1 550 ',
];

function mutate(source: Buffer, random: () => number): Buffer {
  let bytes = Buffer.from(source);
  const steps = 1 + Math.floor(random() * 8);
  for (let step = 0; step < steps; step += 1) {
    const at = Math.floor(random() * bytes.length);
    const choice = random();
    if (choice < 0.3) {
      bytes[at] = Math.floor(random() * 256);
    } else if (choice < 0.5) {
      bytes = bytes.subarray(0, at);
    } else if (choice < 0.7) {
      const length = Math.floor(random() * 2000);
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at, at + length), bytes.subarray(at)]);
    } else {
      const piece = Buffer.from(PIECES[Math.floor(random() * PIECES.length)] as string);
      bytes = Buffer.concat([bytes.subarray(0, at), piece, bytes.subarray(at)]);
    }
  }
  return bytes;
}

describe('parseMailMessage under fuzzing (seeded, mutated corpus messages)', () => {
  it('when 300 mutated messages are read, then each gives well-formed records or a typed error, never another throw', async () => {
    const files = readdirSync(SAMPLES).filter((file) => file.endsWith('.eml'));
    const random = generator(20261127);
    let read = 0;
    for (let iteration = 0; iteration < 300; iteration += 1) {
      const source = readFileSync(new URL(files[Math.floor(random() * files.length)] as string, SAMPLES));
      const result = await outcome(mutate(source, random));
      if (!(result instanceof Error)) {
        expectWellFormed(result);
        read += 1;
      }
    }
    expect(read).toBeGreaterThan(250);
  });
});
