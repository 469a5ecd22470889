import { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import { createReclassificationQueue } from '../../src/bounces/reclassification-queue.js';
import {
  createReclassification,
  findReclassification,
  finishReclassification,
  toReclassificationResource,
  type Reclassification,
} from '../../src/bounces/reclassification-repository.js';
import { newId } from '../../src/domain/ids.js';
import { redisEndpoint } from '../../src/redis.js';
import { findListAccount } from '../lists/list-account.js';
import type { CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';

interface ReclassifyOptions {
  account: string;
  apply?: boolean;
  json?: boolean;
  pollMs?: string;
}

const number = (value: number): string => value.toLocaleString('en-US');

function byCategory(counts: Record<string, number>): string {
  const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
  return entries.length === 0 ? 'none' : entries.map(([category, count]) => `${category} ${number(count)}`).join(', ');
}

function summary(run: Reclassification): string {
  const verb = run.dry_run ? 'would lift' : 'lifted';
  const lines = [
    `Reclassification ${run.id} of account ${run.account_id} (classifier ${run.classifier_version}${run.dry_run ? ', dry run' : ''}): ${run.status}`,
    `  bounce entries examined   ${number(run.entries_examined)} of ${number(run.entries_total ?? 0)} (${number(run.entries_without_evidence)} without any record, kept)`,
    `  records examined          ${number(run.records_examined)} (${byCategory(run.records_by_category)})`,
    `  entries it ${verb.padEnd(13)} ${number(run.lifted)} (${byCategory(run.lifted_by_category)})`,
  ];
  if (run.error) lines.push(`  error: ${run.error}`);
  if (run.dry_run && run.status === 'completed') lines.push('Run again with --apply to lift them.');
  return `${lines.join('\n')}\n`;
}

/**
 * `reclassify --account <name-or-id> [--apply]`: queues a reclassification of the account's stored
 * bounce records for the workers, as `POST /bounces/reclassifications` does, and waits for it
 * with a progress bar (progress lines when stderr is no terminal), then prints what it examined
 * and lifted (with `--apply`) or would lift (without).
 */
export function reclassifyCommand(context: CliContext): Command {
  return new Command('reclassify')
    .description(
      "run the current bounce classifier and the account's settings over its stored bounces; lift the bounce entries no evidence supports any more (a dry run without --apply)",
    )
    .requiredOption('--account <name-or-id>', 'the account')
    .option('--apply', 'lift the entries (without it, only count what would be lifted)')
    .option('--json', 'print the finished run as one JSON line, as GET /bounces/reclassifications/{id} answers it')
    .option('--poll-ms <ms>', 'how often to look at the run', '500')
    .addHelpText(
      'after',
      `
The workers run it (npm start or npm run start:worker must be running); entries of origin
complaint or manual, and bounce entries with no recorded bounce, are never lifted. What it does:
docs/events.md, "Undoing wrong decisions".
`,
    )
    .action(async (options: ReclassifyOptions) => {
      await withRuntime(context, async ({ config, db }) => {
        const account = await findListAccount(db, options.account);
        const run = await createReclassification(db, {
          id: newId(),
          accountId: account.id,
          dryRun: options.apply !== true,
          classifierVersion: CLASSIFIER_VERSION,
        });
        const queue = createReclassificationQueue({ connection: redisEndpoint(config), prefix: config.QUEUE_PREFIX });
        try {
          await queue.queue(run.id);
        } catch (error) {
          await finishReclassification(db, run.id, 'The queue was unavailable: the run was not started.');
          throw error;
        } finally {
          await queue.close();
        }
        const tty = context.stderr.isTTY === true && options.json !== true;
        const bar = tty
          ? new SingleBar(
              { format: 'reclassifying |{bar}| {value}/{total} entries, {lifted} lifted', stream: context.stderr },
              Presets.shades_classic,
            )
          : null;
        bar?.start(1, 0, { lifted: 0 });
        let current: Reclassification = run;
        let lastLine = -1;
        while (current.status !== 'completed' && current.status !== 'failed') {
          await sleep(Number(options.pollMs ?? 500));
          current = (await findReclassification(db, account.id, run.id)) ?? current;
          if (bar) {
            bar.setTotal(Math.max(1, current.entries_total ?? 1));
            bar.update(current.entries_examined, { lifted: current.lifted });
          } else if (options.json !== true && current.entries_examined !== lastLine) {
            lastLine = current.entries_examined;
            context.stderr.write(
              `examined ${number(current.entries_examined)} of ${number(current.entries_total ?? 0)} entries\n`,
            );
          }
        }
        bar?.stop();
        context.stdout.write(
          options.json ? `${JSON.stringify(toReclassificationResource(current))}\n` : summary(current),
        );
        if (current.status === 'failed') context.exitCode = 1;
      });
    });
}
