import { Presets, SingleBar } from 'cli-progress';
import { Command } from 'commander';
import { openMailFiles } from '../../src/mail/mailbox/mail-files.js';
import { mailDigest } from '../../src/mail/messages/mail-job.js';
import { mailMessageRead } from '../../src/mail/messages/mail-message-repository.js';
import { createMailProducer } from '../../src/mail/messages/mail-producer.js';
import { describeRedis, redisEndpoint } from '../../src/redis.js';
import { findListAccount } from '../lists/list-account.js';
import type { CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';
import { producerSettings } from '../../src/producer-queue.js';

interface IngestCounts {
  queued: number;
  duplicates: number;
  tooLarge: number;
}

const number = (value: number): string => value.toLocaleString('en-US');

function summary({ queued, duplicates, tooLarge }: IngestCounts): string {
  return `queued ${number(queued)}, duplicates ${number(duplicates)}, too large ${number(tooLarge)}`;
}

/**
 * `mail ingest <path> --account <name-or-id>`: queues the messages of an .eml file, a maildir or an
 * mbox archive for the mail worker, as `POST /messages` does with the account's key: each acts only
 * for that account. A message read before (the same bytes) is counted as a duplicate and not queued
 * again; one larger than MAIL_MAX_MESSAGE_BYTES is counted and left.
 */
export function mailCommand(context: CliContext): Command {
  const mail = new Command('mail').description('hand mail messages (bounces, complaints) to the service');

  mail
    .command('ingest')
    .description('queue the messages of an .eml file, a maildir or an mbox archive, for one account')
    .argument('<path>', 'an .eml file, a maildir (with cur/ and new/), or an mbox archive')
    .requiredOption('--account <name-or-id>', 'the account the messages act for')
    .addHelpText(
      'after',
      `
A directory with cur/ or new/ is read as a maildir (new/ first, then cur/); a file whose first
line starts with "From " as an mbox archive (mboxrd: ">From " lines lose one ">"); any other
file as one message. The workers read the messages (npm start or npm run start:worker must be
running). The same bytes are one message: running the command again queues nothing twice.
On a terminal a progress bar is shown on stderr. The last line says what was done:
  queued N, duplicates M, too large K
Exit code: 0 when every message was queued or counted, 1 on an error (a missing path, an
unknown account, Redis away), after saying how many were queued before it.
`,
    )
    .action(async (target: string, options: { account: string }) => {
      await withRuntime(context, async ({ config, db }) => {
        const files = await openMailFiles(target, config.MAIL_MAX_MESSAGE_BYTES);
        const account = await findListAccount(db, options.account);
        const producer = createMailProducer({
          connection: redisEndpoint(config),
          ...producerSettings(config),
          connectTimeoutMs: 5000,
        });
        const counts: IngestCounts = { queued: 0, duplicates: 0, tooLarge: 0 };
        const seen = new Set<string>();
        const bar =
          context.stderr.isTTY === true
            ? new SingleBar(
                {
                  format: `ingesting |{bar}| {percentage}% ${files.kind}: {queued} queued, {duplicates} duplicates, {tooLarge} too large`,
                  stream: context.stderr,
                },
                Presets.shades_classic,
              )
            : null;
        bar?.start(Math.max(1, files.totalBytes), 0, counts);
        try {
          for await (const message of files.messages()) {
            if (message.raw === null) {
              counts.tooLarge += 1;
            } else {
              const digest = mailDigest(message.raw);
              if (seen.has(digest) || (await mailMessageRead(db, digest))) {
                counts.duplicates += 1;
              } else {
                try {
                  await producer.queue(message.raw, { source: 'upload', accountId: account.id });
                } catch (error) {
                  const reason = error instanceof Error ? error.message : String(error);
                  throw new Error(
                    `the mail queue (${describeRedis(redisEndpoint(config))}) did not take a message: ${reason}. Before it: ${summary(counts)}`,
                    { cause: error },
                  );
                }
                counts.queued += 1;
              }
              seen.add(digest);
            }
            bar?.update(message.bytesRead, counts);
          }
        } finally {
          bar?.stop();
          await producer.close();
        }
        context.stdout.write(`${summary(counts)}\n`);
      });
    });

  return mail;
}
