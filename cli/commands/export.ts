import { isScope, SCOPE_RULE } from '../../src/domain/scope.js';
import { Command, Option } from 'commander';
import { findAccount } from '../../src/accounts/account-repository.js';
import { streamSuppressions } from '../../src/export/suppression-export.js';
import { ORIGINS, type Origin } from '../../src/domain/origins.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../src/export/export-formats.js';
import { writeExport } from '../../src/export/write-export.js';
import type { CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';

interface ExportOptions {
  account: string;
  origin?: Origin;
  scope?: string;
  format: ExportFormat;
  escapeFormulas?: boolean;
}

export function exportCommand(context: CliContext): Command {
  return new Command('export')
    .description("write every entry of an account's suppression list to stdout, newest first")
    .requiredOption('--account <name-or-id>', 'the account, by name or id')
    .addOption(new Option('--origin <origin>', 'only entries of this origin').choices(ORIGINS))
    .option('--scope <scope>', 'only entries of this named scope')
    .addOption(new Option('--format <format>', 'output format').choices(EXPORT_FORMATS).default('csv'))
    .option('--escape-formulas', 'csv only: make the file safe to open in a spreadsheet (see below)')
    .addHelpText(
      'after',
      `
csv has the header id,email,origin,source_id,created_at,scope (source_id empty when there is
none, scope empty for the whole account);
ndjson prints one Suppression per line, in the API's shape. created_at is ISO 8601 UTC with
milliseconds. Entries are read from a database cursor a batch at a time and written as fast as
the reader takes them, so a list of any size takes little memory. stdout carries the data alone;
"Exported <n> entries." goes to stderr. A reader that stops early (| head) ends the export
quietly with exit code 0.

Values are written exactly as stored. --escape-formulas writes the csv for a spreadsheet instead:
a cell that begins with =, +, -, @, a tab or a carriage return gets a ' in front and is quoted,
so that the spreadsheet shows it as text rather than running it as a formula.`,
    )
    .action(async (options: ExportOptions) => {
      if (options.scope !== undefined && !isScope(options.scope)) throw new Error(`--scope must be ${SCOPE_RULE}.`);
      if (options.escapeFormulas && options.format !== 'csv')
        throw new Error('--escape-formulas is only for --format csv.');
      // One client: the account lookup, then the cursor.
      await withRuntime(
        context,
        async ({ db }) => {
          const account = await findAccount(db, options.account);
          if (!account) throw new Error(`No account named or with id "${options.account}".`);
          const entries = streamSuppressions(db, {
            accountId: account.id,
            origin: options.origin,
            scope: options.scope,
          });
          const result = await writeExport(entries, context.stdout, options.format, {
            escapeFormulas: options.escapeFormulas === true,
          });
          if (result.complete)
            context.stderr.write(`Exported ${result.exported} ${result.exported === 1 ? 'entry' : 'entries'}.\n`);
        },
        1,
      );
    });
}
