import { isScope, SCOPE_RULE } from '../../src/domain/scope.js';
import { Command, Option } from 'commander';
import { loadConfig, type Config } from '../../src/config.js';
import type { Account } from '../../src/accounts/account-repository.js';
import { createDatabase } from '../../src/db/database.js';
import { GIVEN_ORIGINS, type GivenOrigin } from '../../src/domain/origins.js';
import { createLogger } from '../../src/logger.js';
import { redisEndpoint } from '../../src/redis.js';
import { MAX_BATCH_JOB_ENTRIES } from '../../src/queues.js';
import { findListAccount } from '../lists/list-account.js';
import { LIST_FORMATS, listFormatFor, type ListFormat } from '../../src/lists/list-format.js';
import { openListInput } from '../lists/list-input.js';
import { runList } from '../lists/run-list.js';
import { MAX_REASON_LENGTH } from '../../src/contract/limits.js';
import type { CliContext } from '../cli-context.js';
import { producerSettings } from '../../src/producer-queue.js';

interface ListOptions {
  account: string;
  format?: ListFormat;
  origin?: GivenOrigin;
  wait?: boolean;
  force?: boolean;
  reason?: string;
  scope?: string;
}

async function lookUpAccount(context: CliContext, config: Config, nameOrId: string): Promise<Account> {
  const logger = createLogger(config.LOG_LEVEL, context.stderr);
  const db = createDatabase({ url: config.DATABASE_URL, poolSize: 1, logger, applicationName: 'suppression-list-cli' });
  try {
    return await findListAccount(db, nameOrId);
  } finally {
    await db.close();
  }
}

async function runListCommand(
  context: CliContext,
  operation: 'add' | 'remove',
  file: string,
  options: ListOptions,
): Promise<void> {
  const config = loadConfig(context.env);
  const account = await lookUpAccount(context, config, options.account);
  const input = await openListInput(file, context.stdin);
  try {
    const report = await runList(
      {
        operation,
        account,
        origin: options.origin,
        scope: options.scope,
        force: options.force,
        reason: options.reason,
        input: input.stream,
        inputSize: input.size,
        format: listFormatFor(file, options.format),
        wait: options.wait === true,
      },
      {
        redis: redisEndpoint(config),
        ...producerSettings(config),
        stdout: context.stdout,
        stderr: context.stderr,
        tty: context.stderr.isTTY === true,
      },
    );
    context.exitCode = report.exitCode;
  } finally {
    input.close();
  }
}

function formatsHelp(operation: 'add' | 'remove'): string {
  const ndjson =
    operation === 'add'
      ? 'One JSON value a line: a string, or an object with an "email" string field.'
      : 'One JSON value a line: a string, or an object with an "id" or "email" string\n          field (id first).';
  return `
Formats (--format, else from the extension: .csv, .ndjson or .jsonl, .txt; else CSV):
  csv     When the first row has no "@" in it, it is a header, and the column named email,
          e-mail, email address, emailaddress, recipient or address (any case; else the first
          whose name contains "email"; else the first) is read: the exports of SendGrid,
          Postmark, Mailchimp, Amazon SES and Mailgun work as they are. Without a header the
          first column is read. Quoted fields may hold commas, quotes and line breaks.
  ndjson  ${ndjson}
  txt     One address a line.
`;
}

function behaviourHelp(operation: 'add' | 'remove'): string {
  const ids =
    operation === 'remove' ? 'A value that is a UUID is taken as a suppression id, anything else as an address.\n' : '';
  const outcome =
    operation === 'add'
      ? 'An address already on the list keeps its entry and counts as already present.'
      : `An address or id that is not on the list counts as not found. An entry a complaint put on the
list is kept and counted as protected (the first are named), unless --force is given with a
--reason, which each removed entry's history keeps.`;
  return `
The input is streamed, so a file of any size takes little memory; blank lines are skipped.
Addresses are trimmed and lower-cased. A line with nothing valid on it is reported on stderr
as "line <n>: <reason>" (lines count from 1) and skipped; the other lines still go through.
${ids}Entries go to the workers in jobs of at most ${MAX_BATCH_JOB_ENTRIES.toLocaleString('en-US')}; an entry repeated within a job is sent
once. On a terminal a progress bar is shown on stderr, otherwise a line every 10 jobs.

Without --wait the command ends once every job is queued and the workers go on in the
background. With --wait it waits for every job and prints the totals.
${outcome}

Exit code: 1 when a line was invalid or (with --wait) a job failed or an entry was kept as
protected; 0 otherwise. Running the command again with the same input is safe.`;
}

function listCommand(context: CliContext, name: string, operation: 'add' | 'remove'): Command {
  const command = new Command(name)
    .argument('<file>', 'a CSV, NDJSON or text file, or - for standard input')
    .requiredOption('--account <name-or-id>', 'the account, by name or id')
    .addOption(new Option('--format <format>', 'the input format').choices(LIST_FORMATS))
    .option('--wait', 'wait for every job to finish and print the totals')
    .option(
      '--scope <scope>',
      operation === 'add'
        ? 'the named scope the entries are for (without it, the whole account)'
        : "the named scope of the addresses' entries (without it, the whole account's; ids name theirs)",
    );
  if (operation === 'add') {
    command.addOption(
      new Option('--origin <origin>', 'the origin the new entries get').choices(GIVEN_ORIGINS).default('manual'),
    );
  }
  if (operation === 'remove') {
    command
      .option('--force', 'remove entries a complaint put on the list too (needs --reason)')
      .option('--reason <text>', 'why the entries are removed, kept in their history (1 to 500 characters)');
  }
  return command.action((file: string, options: ListOptions) => {
    const reason = options.reason?.trim();
    if (options.reason !== undefined && (reason === '' || (reason?.length ?? 0) > MAX_REASON_LENGTH)) {
      command.error(`error: --reason must be 1 to ${MAX_REASON_LENGTH} characters`);
    }
    if (options.scope !== undefined && !isScope(options.scope)) {
      command.error(`error: --scope must be ${SCOPE_RULE}`);
    }
    if (options.force === true && reason === undefined) {
      command.error('error: --force needs --reason "<why>": the reason is kept in each entry\'s history');
    }
    return runListCommand(context, operation, file, { ...options, reason });
  });
}

export function importCommand(context: CliContext): Command {
  return listCommand(context, 'import', 'add')
    .description("add a list of addresses to an account's suppression list")
    .addHelpText('after', `${formatsHelp('add')}${behaviourHelp('add')}`);
}

export function removeCommand(context: CliContext): Command {
  return listCommand(context, 'remove', 'remove')
    .description("remove a list of addresses, or of suppression ids, from an account's suppression list")
    .addHelpText('after', `${formatsHelp('remove')}${behaviourHelp('remove')}`);
}
