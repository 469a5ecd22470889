import { Command, InvalidArgumentError } from 'commander';
import {
  currentReturnPathSecret,
  overlapEnd,
  rotateReturnPathSecret,
} from '../../src/mail/return-paths/secret-repository.js';
import { verifyReturnPath } from '../../src/mail/return-paths/verify.js';
import { findListAccount } from '../lists/list-account.js';
import type { CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';

/** The setting's own bounds: a whole number of days up to a year. */
function overlapDays(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) > 365) {
    throw new InvalidArgumentError('must be a whole number of days from 0 to 365');
  }
  return Number(value);
}

export function returnPathsCommand(context: CliContext): Command {
  const returnPaths = new Command('return-paths').description(
    "manage an account's return-path secret, and check a return path (VERP) a bounce came to",
  );

  returnPaths
    .command('rotate')
    .description(
      'replace the secret that signs the account’s return paths; the old one verifies for RETURN_PATH_SECRET_OVERLAP_DAYS more',
    )
    .requiredOption('--account <name-or-id>', 'the account')
    .option(
      '--overlap-days <days>',
      'days the old secret keeps verifying, instead of RETURN_PATH_SECRET_OVERLAP_DAYS (0: it stops at once, for one that leaked)',
      overlapDays,
    )
    .action(async (options: { account: string; overlapDays?: number }) => {
      await withRuntime(context, async ({ db, config }) => {
        const account = await findListAccount(db, options.account);
        const overlap = options.overlapDays ?? config.RETURN_PATH_SECRET_OVERLAP_DAYS;
        const { current, retired } = await rotateReturnPathSecret(db, account.id, overlap);
        const signs = `Rotated the return-path secret of account "${account.name}": ${current.id.toString('hex')} signs from now on.\n`;
        const old =
          retired === null
            ? 'It had none before.\n'
            : overlap === 0
              ? `${retired.id.toString('hex')} stopped verifying at once.\n`
              : `${retired.id.toString('hex')} verifies the return paths made with it until ${retired.validUntil?.toISOString()}, then stops.\n`;
        context.stdout.write(signs + old);
      });
    });

  returnPaths
    .command('secret')
    .description(
      "show the id and age of the account's current return-path secret (made if it has none), never the secret",
    )
    .requiredOption('--account <name-or-id>', 'the account')
    .action(async (options: { account: string }) => {
      await withRuntime(context, async ({ db }) => {
        const account = await findListAccount(db, options.account);
        const secret = await currentReturnPathSecret(db, account.id);
        const until = await overlapEnd(db, account.id, new Date());
        context.stdout.write(
          `${secret.id.toString('hex')}  made ${secret.createdAt.toISOString()}` +
            (until === null ? '' : `  (a previous secret verifies until ${until.toISOString()})`) +
            '\n',
        );
      });
    });

  returnPaths
    .command('verify')
    .description('say whose mail an address a bounce came to is about, if it is a return path the service signed')
    .argument('<address>', 'the address, such as bounces+<token>@bounces.example.com')
    .option('--at <time>', 'judge it as of this ISO 8601 time instead of now (a report that arrived earlier)')
    .action(async (address: string, options: { at?: string }) => {
      const now = options.at === undefined ? new Date() : new Date(options.at);
      if (Number.isNaN(now.getTime())) throw new Error(`"${options.at}" is not an ISO 8601 time.`);
      await withRuntime(context, async ({ db, config }) => {
        const verified = await verifyReturnPath(db, address, {
          bounceDomains: config.BOUNCE_DOMAINS,
          localPart: config.BOUNCE_LOCAL_PART,
          now,
        });
        context.stdout.write(`${JSON.stringify(verified)}\n`);
        if (!verified.ok) context.exitCode = 1;
      });
    });

  return returnPaths;
}
