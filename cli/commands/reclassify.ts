import { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import { allReclassificationEntries } from '../../src/bounces/reclassification-entries.js';
import { createReclassificationQueue } from '../../src/bounces/reclassification-queue.js';
import {
  createReclassification,
  findReclassification,
  finishReclassification,
  toReclassificationResource,
  type Reclassification,
} from '../../src/bounces/reclassification-repository.js';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import { redisEndpoint } from '../../src/redis.js';
import { findListAccount } from '../lists/list-account.js';
import type { CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';
import { writeEntriesCsv } from './reclassify-csv.js';

interface ReclassifyOptions {
  account: string;
  apply?: boolean;
  json?: boolean;
  output?: string;
  escapeFormulas?: boolean;
  pollMs?: string;
}

const number = (value: number): string => value.toLocaleString('en-US');

function byCategory(counts: Record<string, number>): string {
  const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
  return entries.length === 0 ? 'none' : entries.map(([category, count]) => `${category} ${number(count)}`).join(', ');
}

/** Where the entries went: the file, `-` for stdout, or nowhere. */
function summary(run: Reclassification, output: string | undefined, listed: number | null): string {
  const verb = run.dry_run ? 'would lift' : 'lifted';
  const lines = [
    `Reclassification ${run.id} of account ${run.account_id} (classifier ${run.classifier_version}${run.dry_run ? ', dry run' : ''}): ${run.status}`,
    `  bounce entries examined   ${number(run.entries_examined)} of ${number(run.entries_total ?? 0)} (${number(run.entries_without_evidence)} without any record, kept)`,
    `  records examined          ${number(run.records_examined)} (${byCategory(run.records_by_category)})`,
    `  entries it ${verb.padEnd(13)} ${number(run.lifted)} (${byCategory(run.lifted_by_category)})`,
  ];
  if (listed !== null) {
    const where = output === '-' ? 'stdout' : output;
    lines.push(`  listed as CSV in          ${where} (${number(listed)} ${listed === 1 ? 'entry' : 'entries'})`);
  }
  if (run.error) lines.push(`  error: ${run.error}`);
  if (run.dry_run && run.status === 'completed' && run.lifted > 0) {
    lines.push(
      output === undefined
        ? 'Review them with --output <file> (or GET /bounces/reclassifications/{id}/entries), then run again with --apply to lift them.'
        : 'Review them, then run again with --apply to lift them.',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The file the entries go to, opened before the run starts so that a path that cannot be written stops nothing half-way. */
async function openOutput(context: CliContext, output: string | undefined): Promise<Writable | null> {
  if (output === undefined) return null;
  if (output === '-') return context.stdout;
  try {
    return (await open(output, 'w')).createWriteStream();
  } catch (error) {
    throw new Error(`--output ${output} cannot be written: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * `reclassify --account <name-or-id> [--apply] [--output <file>]`: queues a reclassification of the
 * account's stored bounce records for the workers, as `POST /bounces/reclassifications` does, and
 * waits for it with a progress bar (progress lines when stderr is no terminal), then prints what
 * it examined and lifted (with `--apply`) or would lift (without), and writes those entries as CSV
 * for review.
 */
export function reclassifyCommand(context: CliContext): Command {
  return new Command('reclassify')
    .description(
      "run the current bounce classifier and the account's settings over its stored bounces; lift the bounce entries no evidence supports any more (a dry run without --apply)",
    )
    .requiredOption('--account <name-or-id>', 'the account')
    .option('--apply', 'lift the entries (without it, only count what would be lifted)')
    .option('--json', 'print the finished run as one JSON line, as GET /bounces/reclassifications/{id} answers it')
    .option(
      '--output <file>',
      'write the entries it lifts (without --apply: would lift) as CSV to this file, or - for stdout',
    )
    .option('--escape-formulas', 'with --output: make the CSV safe to open in a spreadsheet (see below)')
    .option('--poll-ms <ms>', 'how often to look at the run', '500')
    .addHelpText(
      'after',
      `
The workers run it (npm start or npm run start:worker must be running); entries of origin
complaint or manual, and bounce entries with no recorded bounce, are never lifted. What it does:
docs/events.md, "Undoing wrong decisions".

Review before you apply: a dry run with --output review.csv lists every entry it would lift,
one line each, with the header
id,email,category,reason,rule,bounces,bounce_type,bounce_sub_type,bounce_status,
bounce_reply_code,bounce_diagnostic,bounce_provider,bounce_remote_mta,bounce_occurred_at
(the classifier's decision now on the address's latest bounce, that bounce's evidence, and the
bounces judged). With --output - the CSV goes to stdout and the summary to stderr. A diagnostic is
the remote server's text: --escape-formulas puts a ' before a cell that a spreadsheet would run as
a formula (=, +, -, @, a tab or a carriage return first) and quotes it, as export does.
`,
    )
    .action(async (options: ReclassifyOptions) => {
      if (options.escapeFormulas && options.output === undefined) throw new Error('--escape-formulas needs --output.');
      if (options.json && options.output === '-') throw new Error('--json and --output - cannot both use stdout.');
      await withRuntime(context, async ({ config, db }) => {
        const account = await findListAccount(db, options.account);
        const destination = await openOutput(context, options.output);
        try {
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
          const current = await finished(context, db, run, options);
          // Even a failed run's entries: those a real run lifted before it failed are gone from the list.
          const listed = destination
            ? await writeEntriesCsv(allReclassificationEntries(db, run.id), destination, {
                escapeFormulas: options.escapeFormulas === true,
              })
            : null;
          (options.output === '-' ? context.stderr : context.stdout).write(
            options.json
              ? `${JSON.stringify(toReclassificationResource(current))}\n`
              : summary(current, options.output, listed),
          );
          if (current.status === 'failed') context.exitCode = 1;
        } finally {
          if (destination !== null && destination !== context.stdout) destination.destroy();
        }
      });
    });
}

/**
 * The run once it has ended, looked at every `--poll-ms`, with a progress bar on a terminal
 * (progress lines when stderr is no terminal, nothing with `--json`).
 */
async function finished(
  context: CliContext,
  db: Database,
  run: Reclassification,
  options: ReclassifyOptions,
): Promise<Reclassification> {
  const tty = context.stderr.isTTY === true && options.json !== true;
  const bar = tty
    ? new SingleBar(
        { format: 'reclassifying |{bar}| {value}/{total} entries, {lifted} lifted', stream: context.stderr },
        Presets.shades_classic,
      )
    : null;
  bar?.start(1, 0, { lifted: 0 });
  let current = run;
  let lastLine = -1;
  while (current.status !== 'completed' && current.status !== 'failed') {
    await sleep(Number(options.pollMs ?? 500));
    current = (await findReclassification(db, run.account_id, run.id)) ?? current;
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
  return current;
}
