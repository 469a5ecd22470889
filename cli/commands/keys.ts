import { Command, Option } from 'commander';
import { findAccount } from '../../src/accounts/account-repository.js';
import { issueApiKey, listApiKeys, revokeApiKey } from '../../src/accounts/api-key-repository.js';
import { PERMISSIONS, type Permission } from '../../src/accounts/api-key-token.js';
import { isUuid } from '../../src/domain/ids.js';
import { printTable, type CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';

function formatDate(date: Date | null): string {
  return date ? date.toISOString() : '-';
}

export function keysCommand(context: CliContext): Command {
  const keys = new Command('keys').description('create, list and revoke API keys');

  keys
    .command('create')
    .description('create an API key (and the account, when it does not exist yet)')
    .requiredOption('--account <name>', 'account name')
    .addOption(
      new Option('--permission <permission>', 'what the key may do').choices(PERMISSIONS).default('full_access'),
    )
    .option('--name <name>', 'a label for the key', 'default')
    .option('--json', 'print one JSON line: {"account_id","key_id","token"}')
    .action(async (options: { account: string; permission: Permission; name: string; json?: boolean }) => {
      await withRuntime(context, async ({ db }) => {
        const issued = await issueApiKey(db, {
          accountName: options.account,
          permission: options.permission,
          name: options.name,
        });
        if (options.json) {
          context.stdout.write(
            `${JSON.stringify({ account_id: issued.accountId, key_id: issued.keyId, token: issued.token })}\n`,
          );
          return;
        }
        context.stdout.write(
          `Created ${options.permission} key ${issued.keyId} for account "${options.account}" (${issued.accountId}).\n` +
            `Token (shown only now; keep it secret):\n\n  ${issued.token}\n\n`,
        );
      });
    });

  keys
    .command('list')
    .description('list API keys (never their tokens)')
    .option('--account <name-or-id>', 'only this account')
    .option('--json', 'print one JSON object per line')
    .action(async (options: { account?: string; json?: boolean }) => {
      await withRuntime(context, async ({ db }) => {
        let accountId: string | undefined;
        if (options.account !== undefined) {
          const account = await findAccount(db, options.account);
          if (!account) throw new Error(`No account named or with id "${options.account}".`);
          accountId = account.id;
        }
        const rows = await listApiKeys(db, accountId);
        if (options.json) {
          for (const row of rows) context.stdout.write(`${JSON.stringify(row)}\n`);
          return;
        }
        if (rows.length === 0) {
          context.stdout.write('No API keys.\n');
          return;
        }
        printTable(
          context,
          rows.map((row) => ({
            key_id: row.id,
            account: row.accountName,
            name: row.name,
            permission: row.permission,
            created_at: formatDate(row.createdAt),
            last_used_at: formatDate(row.lastUsedAt),
            revoked_at: formatDate(row.revokedAt),
          })),
        );
      });
    });

  keys
    .command('revoke')
    .description('revoke an API key; it stops working within a few seconds')
    .argument('<key-id>', 'the key id shown by `keys create` or `keys list`')
    .action(async (keyId: string) => {
      if (!isUuid(keyId)) throw new Error(`"${keyId}" is not a key id (a UUID).`);
      await withRuntime(context, async ({ db }) => {
        if (!(await revokeApiKey(db, keyId.toLowerCase()))) throw new Error(`No API key with id ${keyId}.`);
        context.stdout.write(`Revoked key ${keyId}.\n`);
      });
    });

  return keys;
}
