import { Command } from 'commander';
import { BOUNCE_CATEGORIES } from '../../src/domain/bounce-categories.js';
import type { Account } from '../../src/accounts/account-repository.js';
import { getSettings, updateSettings } from '../../src/policy/settings-repository.js';
import { GIVEN_ORIGINS as ORIGINS, type GivenOrigin as Origin } from '../../src/domain/origins.js';
import type { SettingsChange, SuppressionSettings } from '../../src/policy/settings.js';
import { updateSettingsBodySchema } from '../../api/settings/schemas.js';
import { parseInput } from '../../api/http/validation.js';
import { findListAccount } from '../lists/list-account.js';
import type { CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';

interface SetOptions {
  account: string;
  bounceAction?: string[];
  softBounceThreshold?: string;
  softBounceWindowDays?: string;
  expireBounceAfterDays?: string;
  expireComplaintAfterDays?: string;
  expireManualAfterDays?: string;
  complaintScope?: string;
  json?: boolean;
}

const EXPIRY_OPTIONS: Record<Origin, 'expireBounceAfterDays' | 'expireComplaintAfterDays' | 'expireManualAfterDays'> = {
  bounce: 'expireBounceAfterDays',
  complaint: 'expireComplaintAfterDays',
  manual: 'expireManualAfterDays',
};

const NUMBER = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/;

/**
 * An option's text as the API would get it: the word for "none" is null, a number is a number, and
 * anything else stays a string, so that the API's rules refuse it with the API's own message.
 */
function valueOf(text: string, none?: string): unknown {
  if (none !== undefined && text === none) return null;
  return NUMBER.test(text) ? Number(text) : text;
}

/** `category=action` pairs as the API's `bounce_actions` object; a pair without `=` is left for the API's rules to name. */
function bounceActionsOf(pairs: readonly string[]): Record<string, string> {
  const actions: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 0)
      throw new Error(`--bounce-action takes <category>=<action>, such as sender_blocked=record; got "${pair}".`);
    actions[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return actions;
}

/** The change the options ask for, checked by the rules `PATCH /settings/suppressions` applies. */
function changeOf(options: SetOptions): SettingsChange {
  const change: Record<string, unknown> = {};
  const expiry: Record<string, unknown> = {};
  if (options.bounceAction !== undefined) change['bounce_actions'] = bounceActionsOf(options.bounceAction);
  if (options.softBounceThreshold !== undefined)
    change['soft_bounce_threshold'] = valueOf(options.softBounceThreshold, 'off');
  if (options.softBounceWindowDays !== undefined)
    change['soft_bounce_window_days'] = valueOf(options.softBounceWindowDays);
  for (const origin of ORIGINS) {
    const text = options[EXPIRY_OPTIONS[origin]];
    if (text !== undefined) expiry[origin] = valueOf(text, 'never');
  }
  if (Object.keys(expiry).length > 0) change['expire_after_days'] = expiry;
  if (options.complaintScope !== undefined) change['complaint_scope'] = options.complaintScope;
  if (Object.keys(change).length === 0)
    throw new Error(
      'Give at least one of --bounce-action, --soft-bounce-threshold, --soft-bounce-window-days, --expire-bounce-after-days, --expire-complaint-after-days, --expire-manual-after-days or --complaint-scope.',
    );
  return parseInput(updateSettingsBodySchema, change);
}

function settingsJson(account: Account, settings: SuppressionSettings): string {
  return `${JSON.stringify({ account_id: account.id, account: account.name, ...settings })}\n`;
}

function settingsText(title: string, settings: SuppressionSettings): string {
  const rows: [string, string][] = [
    ...BOUNCE_CATEGORIES.map((category): [string, string] => [
      `bounce_actions.${category}`,
      settings.bounce_actions[category],
    ]),
    ['soft_bounce_threshold', settings.soft_bounce_threshold === null ? 'off' : String(settings.soft_bounce_threshold)],
    ['soft_bounce_window_days', String(settings.soft_bounce_window_days)],
    ...ORIGINS.map((origin): [string, string] => {
      const days = settings.expire_after_days[origin];
      return [`expire_after_days.${origin}`, days === null ? 'never' : String(days)];
    }),
    ['complaint_scope', settings.complaint_scope],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [title, ...rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`)].join('\n') + '\n';
}

export function settingsCommand(context: CliContext): Command {
  const settings = new Command('settings').description(
    "show and change an account's suppression settings (bounce actions, soft-bounce threshold, expiry)",
  );

  settings
    .command('show')
    .description("show an account's suppression settings (the defaults when it never changed them)")
    .requiredOption('--account <name-or-id>', 'the account')
    .option(
      '--json',
      'print one JSON line: {"account_id","account","bounce_actions","soft_bounce_threshold","soft_bounce_window_days","expire_after_days","complaint_scope"}',
    )
    .action(async (options: { account: string; json?: boolean }) => {
      await withRuntime(context, async ({ db }) => {
        const account = await findListAccount(db, options.account);
        const current = await getSettings(db, account.id);
        context.stdout.write(
          options.json
            ? settingsJson(account, current)
            : settingsText(`Suppression settings of account "${account.name}" (${account.id}):`, current),
        );
      });
    });

  settings
    .command('set')
    .description("change some of an account's suppression settings; those not given keep their values")
    .requiredOption('--account <name-or-id>', 'the account')
    .option(
      '--bounce-action <category=action>',
      `what a bounce of a category does: suppress, count or record (categories: ${BOUNCE_CATEGORIES.join(', ')}); repeat for several`,
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--soft-bounce-threshold <n|off>',
      'bounces whose action is count within the window that suppress an address (2-100)',
    )
    .option('--soft-bounce-window-days <n>', 'the window soft bounces are counted over, in days (1-365)')
    .option('--expire-bounce-after-days <n|never>', 'days after which bounce entries leave the list (1-3650)')
    .option('--expire-complaint-after-days <n|never>', 'days after which complaint entries leave the list (1-3650)')
    .option('--expire-manual-after-days <n|never>', 'days after which manual entries leave the list (1-3650)')
    .option(
      '--complaint-scope <message|global>',
      "where a complaint about a message of a named scope puts the address: that scope, or the whole account's list",
    )
    .option('--json', 'print the resulting settings as one JSON line, as `settings show --json` does')
    .addHelpText(
      'after',
      `
Values are checked as PATCH /settings/suppressions checks them, with the same messages; there
"off" and "never" are null. What the bounce categories, their actions, the threshold and expiry
do: docs/events.md.
`,
    )
    .action(async (options: SetOptions) => {
      const change = changeOf(options);
      await withRuntime(context, async ({ db }) => {
        const account = await findListAccount(db, options.account);
        const updated = await updateSettings(db, account.id, change);
        context.stdout.write(
          options.json
            ? settingsJson(account, updated)
            : settingsText(`Updated the suppression settings of account "${account.name}" (${account.id}):`, updated),
        );
      });
    });

  return settings;
}
