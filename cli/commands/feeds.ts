import { Command, Option } from 'commander';
import { ensureAccount, findAccount, type Account } from '../../src/accounts/account-repository.js';
import type { Queryable } from '../../src/db/database.js';
import { createFeed, listFeeds, removeFeed } from '../../src/feeds/feed-repository.js';
import { isUuid } from '../../src/domain/ids.js';
import { feedPath, newFeedId, type Feed } from '../../src/feeds/feed.js';
import type { FeedSettingsInput } from '../../src/feeds/feed-provider.js';
import { createOptions, feedSettings, foreignOptions } from '../../src/feeds/feed-settings.js';
import { feedProvider, PROVIDERS, type Provider } from '../../src/feeds/providers/index.js';
import { acceptsScopeSource, type ScopeSource } from '../../src/feeds/message-scope.js';
import { findListAccount } from '../lists/list-account.js';
import { printTable, type CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';

interface CreateOptions {
  account: string;
  provider: Provider;
  scopeFrom?: string;
  json?: boolean;
}

/** The feed's scope source, if the provider's messages carry it; an error naming those they do carry. */
function scopeSourceOf(provider: Provider, given: string | undefined): ScopeSource | null {
  if (given === undefined) return null;
  const { title, scopeSources } = feedProvider(provider);
  if (acceptsScopeSource(scopeSources, given)) return given;
  throw new Error(`--scope-from of a ${title} feed is one of ${scopeSources.join(', ')}; got "${given}".`);
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

interface ProviderOption {
  key: string;
  cli: Option;
}

/** The providers' options, each once, as commander takes them: described with the providers that take it. */
function providerOptions(): ProviderOption[] {
  return createOptions().map((option) => {
    const cli = new Option(option.flags, `${option.providers.join(', ')}: ${option.description}`);
    return { key: option.key, cli: option.repeatable ? cli.argParser(collect) : cli };
  });
}

/** What the providers' options were given, by their keys. */
function settingsInput(given: ProviderOption[], options: Record<string, unknown>): FeedSettingsInput {
  return Object.fromEntries(
    given.map(({ key, cli }) => [key, options[cli.attributeName()] as FeedSettingsInput[string]]),
  );
}

/** The account named or with this id; a new name creates it, as `keys create` does. */
async function accountFor(db: Queryable, nameOrId: string): Promise<Account> {
  const found = await findAccount(db, nameOrId);
  if (found) return found;
  if (isUuid(nameOrId)) throw new Error(`No account with id ${nameOrId}.`);
  return ensureAccount(db, nameOrId);
}

function printCreated(
  context: CliContext,
  feed: Feed,
  accountName: string,
  shown: Record<string, string | string[]>,
): void {
  const lines = [
    `Created ${feed.provider} feed ${feed.id} for account "${accountName}" (${feed.accountId}).`,
    `Path (below this service's base URL): ${feedPath(feed.id)}`,
    ...(feed.scopeFrom === null ? [] : [`Scope of each message read from: ${feed.scopeFrom}`]),
    ...Object.entries(shown).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`),
    ...feedProvider(feed.provider).settings.hints,
  ];
  context.stdout.write(`${lines.join('\n')}\n`);
}

export function feedsCommand(context: CliContext): Command {
  const feeds = new Command('feeds').description(
    'create, list and remove provider feeds (bounce and complaint webhooks)',
  );

  const create = feeds
    .command('create')
    .description('create a feed: a webhook URL for one provider, verified with its own signature or credentials')
    .requiredOption('--account <name-or-id>', 'the account whose list the feed fills (a new name creates it)')
    .addOption(new Option('--provider <provider>', 'the sending provider').choices(PROVIDERS).makeOptionMandatory());
  const providerFlags = providerOptions();
  for (const { cli } of providerFlags) create.addOption(cli);
  create
    .option(
      '--scope-from <source>',
      'where the scope of each message is read, for complaints to stay in it: Postmark stream, SES configuration-set, SendGrid asm-group or category, Mailgun tag (the first), Postal tag, or tag:<name> (a tag, metadata, custom argument, user variable or KumoMTA meta field of that name)',
    )
    .option(
      '--json',
      'print one JSON line: {"feed_id","account_id","provider","path","scope_from"} and the provider\'s fields',
    )
    .action(async (options: CreateOptions & Record<string, unknown>) => {
      const input = settingsInput(providerFlags, options);
      const foreign = foreignOptions(options.provider, input);
      if (foreign.length > 0) throw new Error(`${foreign.join(', ')} is not an option of ${options.provider} feeds.`);
      const settings = feedSettings(options.provider, input);
      const scopeFrom = scopeSourceOf(options.provider, options.scopeFrom);
      await withRuntime(context, async ({ db }) => {
        const account = await accountFor(db, options.account);
        const feed = await createFeed(db, {
          id: newFeedId(),
          accountId: account.id,
          provider: options.provider,
          verification: settings.verification,
          scopeFrom,
        });
        if (options.json) {
          const line = {
            feed_id: feed.id,
            account_id: feed.accountId,
            provider: feed.provider,
            path: feedPath(feed.id),
            scope_from: feed.scopeFrom,
            ...settings.shown,
          };
          context.stdout.write(`${JSON.stringify(line)}\n`);
          return;
        }
        printCreated(context, feed, account.name, settings.shown);
      });
    });

  feeds
    .command('list')
    .description('list feeds (never their secrets)')
    .option('--account <name-or-id>', 'only this account')
    .option('--json', 'print one JSON object per line')
    .action(async (options: { account?: string; json?: boolean }) => {
      await withRuntime(context, async ({ db }) => {
        const account = options.account === undefined ? undefined : await findListAccount(db, options.account);
        const rows = await listFeeds(db, account?.id);
        if (options.json) {
          for (const row of rows) {
            const line = {
              feed_id: row.id,
              account_id: row.accountId,
              account: row.accountName,
              provider: row.provider,
              path: feedPath(row.id),
              created_at: row.createdAt.toISOString(),
            };
            context.stdout.write(`${JSON.stringify(line)}\n`);
          }
          return;
        }
        if (rows.length === 0) {
          context.stdout.write('No feeds.\n');
          return;
        }
        printTable(
          context,
          rows.map((row) => ({
            feed_id: row.id,
            account: row.accountName,
            provider: row.provider,
            path: feedPath(row.id),
            created_at: row.createdAt.toISOString(),
          })),
        );
      });
    });

  feeds
    .command('remove')
    .description('remove a feed; its requests are answered 404 at once')
    .argument('<feed-id>', 'the feed id shown by `feeds create` or `feeds list`')
    .action(async (feedId: string) => {
      await withRuntime(context, async ({ db }) => {
        if (!(await removeFeed(db, feedId))) throw new Error(`No feed with id ${feedId}.`);
        context.stdout.write(`Removed feed ${feedId}.\n`);
      });
    });

  return feeds;
}
