import { producerQueue, type ProducerConnectionOptions } from '../../producer-queue.js';
import { MAIL_QUEUE } from '../../queues.js';
import { mailDigest, mailJobId, NO_ENVELOPE, type MailEnvelope, type MailJob, type MailSource } from './mail-job.js';

export interface QueuedMail {
  /** The message's SHA-256, hex: the same bytes are one message. */
  digest: string;
  jobId: string;
}

export interface MailProducer {
  /**
   * Queues one message; resolves once Redis has taken it (durably, as far as Redis's persistence
   * goes), and rejects when it cannot: only then may a listener answer 250.
   */
  queue(
    raw: Buffer,
    how: { source: MailSource; envelope?: MailEnvelope; accountId?: string; receivedAt?: Date },
  ): Promise<QueuedMail>;
  close(): Promise<void>;
}

export function createMailProducer(options: ProducerConnectionOptions): MailProducer {
  const queue = producerQueue(MAIL_QUEUE, options);
  return {
    async queue(raw, { source, envelope = NO_ENVELOPE, accountId, receivedAt = new Date() }) {
      const digest = mailDigest(raw);
      const data: MailJob = {
        raw: raw.toString('base64'),
        source,
        received_at: receivedAt.toISOString(),
        envelope,
        ...(accountId === undefined ? {} : { account_id: accountId }),
      };
      const jobId = mailJobId(digest);
      await (await queue.open()).add('message', data, { jobId });
      return { digest, jobId };
    },
    close: () => queue.close(),
  };
}
