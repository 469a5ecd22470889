import { mailDigest } from '../../src/mail/messages/mail-job.js';
import type { MailProducer } from '../../src/mail/messages/mail-producer.js';
import { dsn } from '../../test/support/mail-messages.js';
import { openSmtpSession } from '../../test/support/smtp-session.js';

export const BENCH_DOMAIN = 'bounces.bench.example';
const RETURN_PATH = `bounces@${BENCH_DOMAIN}`;

/** Distinct DSNs, each saying one new recipient's mailbox does not exist. */
export function benchMessages(count: number, label: string): Buffer[] {
  return Array.from({ length: count }, (_, index) =>
    dsn(RETURN_PATH, [
      { recipient: `${label}-${index}@example.org`, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    ]),
  );
}

/** What became of the messages sent: the digests of those answered 250, and how many were not. */
export interface Sent {
  accepted: string[];
  refused: number;
}

/** Runs `work` over `items` with `lanes` at once, each taking the next item when done. */
async function inTurns<T>(items: readonly T[], lanes: number, work: (lane: number) => (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, items.length) }, async (_, lane) => {
      const each = work(lane);
      while (next < items.length) await each(items[next++] as T);
    }),
  );
}

/** Queues the messages with the producer directly, `lanes` at once: the baseline of the listener. */
export async function queueDirectly(producer: MailProducer, messages: readonly Buffer[], lanes: number): Promise<Sent> {
  const accepted: string[] = [];
  await inTurns(messages, lanes, () => async (raw) => {
    const queued = await producer.queue(raw, { source: 'smtp', envelope: { mail_from: null, rcpt_to: [RETURN_PATH] } });
    accepted.push(queued.digest);
  });
  return { accepted, refused: 0 };
}

/**
 * Sends the messages over `lanes` SMTP sessions, each sending its share one after another with
 * pipelined commands, as an MTA's connection cache does.
 */
export async function sendOverSmtp(port: number, messages: readonly Buffer[], lanes: number): Promise<Sent> {
  const sessions = await Promise.all(
    Array.from({ length: Math.min(lanes, messages.length) }, () => openSmtpSession(port)),
  );
  try {
    for (const session of sessions) await session.command('EHLO bench.example');
    const accepted: string[] = [];
    let refused = 0;
    await inTurns(messages, sessions.length, (lane) => async (raw) => {
      const session = sessions[lane]!;
      session.write(`MAIL FROM:<>\r\nRCPT TO:<${RETURN_PATH}>\r\nDATA\r\n`);
      for (let reply = 0; reply < 3; reply += 1) await session.reply();
      session.write(Buffer.concat([raw, Buffer.from('.\r\n')]));
      if ((await session.reply()).code !== 250) {
        refused += 1;
        return;
      }
      accepted.push(mailDigest(raw));
    });
    return { accepted, refused };
  } finally {
    for (const session of sessions) session.destroy();
  }
}
