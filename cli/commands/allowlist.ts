import { Command } from 'commander';
import {
  addAllowlistRule,
  countCoveredEntries,
  listAllowlistRules,
  removeAllowlistRule,
  type AllowlistRule,
} from '../../src/allowlist/allowlist-repository.js';
import { MAX_PAGE_SIZE } from '../../src/contract/limits.js';
import { newId, isUuid } from '../../src/domain/ids.js';
import { addRuleBodySchema, ruleValueOf, toAllowlistRuleResource } from '../../api/allowlist/rules.js';
import { parseInput } from '../../api/http/validation.js';
import { findListAccount } from '../lists/list-account.js';
import type { CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';

interface AddOptions {
  account: string;
  email?: string;
  domain?: string;
  note?: string;
  json?: boolean;
}

const describe = (rule: AllowlistRule): string =>
  `${rule.id}  ${rule.value}${rule.note === null ? '' : `  (${rule.note})`}`;

export function allowlistCommand(context: CliContext): Command {
  const allowlist = new Command('allowlist').description(
    "manage an account's allowlist: addresses and domains that are never suppressed",
  );

  allowlist
    .command('add')
    .description('allowlist an address or a domain (entries already on the list are kept, and counted)')
    .requiredOption('--account <name-or-id>', 'the account')
    .option('--email <address>', 'an address')
    .option('--domain <domain>', "a domain: its addresses, not its subdomains'")
    .option('--note <text>', 'why the rule is there')
    .option('--json', 'print the rule as one JSON line, as the API answers it')
    .action(async (options: AddOptions) => {
      // The API's rules, with its messages.
      const body = parseInput(addRuleBodySchema, { email: options.email, domain: options.domain, note: options.note });
      const value = ruleValueOf(body);
      await withRuntime(context, async ({ db }) => {
        const account = await findListAccount(db, options.account);
        const { rule, created } = await addAllowlistRule(db, {
          id: newId(),
          accountId: account.id,
          value,
          note: body.note ?? null,
        });
        const covered = await countCoveredEntries(db, account.id, value);
        if (options.json) {
          context.stdout.write(`${JSON.stringify({ ...toAllowlistRuleResource(rule), covered_entries: covered })}\n`);
          return;
        }
        context.stdout.write(
          `${created ? 'Allowlisted' : 'Already allowlisted'} for account "${account.name}": ${describe(rule)}\n` +
            `${covered} ${covered === 1 ? 'entry' : 'entries'} on the list ${covered === 1 ? 'is' : 'are'} covered; ` +
            'they stay until removed, and the check no longer reports them.\n',
        );
      });
    });

  allowlist
    .command('list')
    .description("list an account's allowlist, newest first")
    .requiredOption('--account <name-or-id>', 'the account')
    .option('--json', 'print one rule per line, as the API answers them')
    .action(async (options: { account: string; json?: boolean }) => {
      await withRuntime(context, async ({ db }) => {
        const account = await findListAccount(db, options.account);
        let after: string | undefined;
        for (;;) {
          const page = await listAllowlistRules(db, { accountId: account.id, limit: MAX_PAGE_SIZE, after });
          for (const rule of page.rules) {
            context.stdout.write(
              options.json ? `${JSON.stringify(toAllowlistRuleResource(rule))}\n` : `${describe(rule)}\n`,
            );
          }
          if (!page.hasMore) break;
          after = page.rules.at(-1)?.id;
        }
      });
    });

  allowlist
    .command('remove')
    .description('remove a rule: its addresses may be suppressed again from now on')
    .argument('<rule-id>', 'the rule, as `allowlist list` shows it')
    .requiredOption('--account <name-or-id>', 'the account')
    .action(async (ruleId: string, options: { account: string }) => {
      if (!isUuid(ruleId)) throw new Error(`"${ruleId}" is not a rule id.`);
      await withRuntime(context, async ({ db }) => {
        const account = await findListAccount(db, options.account);
        if (!(await removeAllowlistRule(db, account.id, ruleId.toLowerCase()))) {
          throw new Error(`Account "${account.name}" has no allowlist rule ${ruleId}.`);
        }
        context.stdout.write(`Removed allowlist rule ${ruleId} of account "${account.name}".\n`);
      });
    });

  return allowlist;
}
