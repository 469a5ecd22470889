import { Command, Option } from 'commander';
import { ensureAccount, findAccount, type Account } from '../../src/accounts/account-repository.js';
import type { Queryable } from '../../src/db/database.js';
import { createFeed, listFeeds, removeFeed } from '../../src/feeds/feed-repository.js';
import { isUuid } from '../../src/domain/ids.js';
import { feedPath, newFeedId, type Feed } from '../../src/feeds/feed.js';
import { PROVIDERS, type Provider } from '../../src/feeds/feed-mapping.js';
import { feedSettings, foreignOptions, type FeedSettingsInput } from '../../src/feeds/feed-settings.js';
import { findListAccount } from '../lists/list-account.js';
import { withRuntime } from '../with-runtime.js';

interface CreateOptions extends Omit<FeedSettingsInput, 'topicArns'> {
  account: string;
  provider: Provider;
  /** Every `--topic-arn` given. */
  topicArn?: string[];
  json?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The account named or with this id; a new name creates it, as `keys create` does. */
async function accountFor(db: Queryable, nameOrId: string): Promise<Account> {
  const found = await findAccount(db, nameOrId);
  if (found) return found;
  if (isUuid(nameOrId)) throw new Error(`No account with id ${nameOrId}.`);
  return ensureAccount(db, nameOrId);
}

const SETUP_HINTS: Record<Provider, string> = {
  ses: 'Subscribe this URL (HTTPS) to the topic, with raw message delivery off; the subscription is confirmed on its first message.',
  sendgrid: 'Set it as the Event Webhook URL, with signed event webhook requests on.',
  postmark:
    'Set it as the webhook URL with the credentials above as Basic auth: https://<username>:<password>@<host>/feeds/<id>.',
  mailgun: 'Add it as the webhook URL for the permanent failure, temporary failure and spam complaint events.',
  resend: 'Add it as a webhook endpoint for email.bounced and email.complained.',
};

function printCreated(feed: Feed, accountName: string, shown: Record<string, string | string[]>): void {
  const lines = [
    `Created ${feed.provider} feed ${feed.id} for account "${accountName}" (${feed.accountId}).`,
    `Path (below this service's base URL): ${feedPath(feed.id)}`,
    ...Object.entries(shown).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`),
    ...(feed.provider === 'postmark' ? ['The password is shown only now; keep it secret.'] : []),
    SETUP_HINTS[feed.provider],
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

export function feedsCommand(): Command {
  const feeds = new Command('feeds').description(
    'create, list and remove provider feeds (bounce and complaint webhooks)',
  );

  feeds
    .command('create')
    .description('create a feed: a webhook URL for one provider, verified with its own signature or credentials')
    .requiredOption('--account <name-or-id>', 'the account whose list the feed fills (a new name creates it)')
    .addOption(new Option('--provider <provider>', 'the sending provider').choices(PROVIDERS).makeOptionMandatory())
    .option('--topic-arn <arn>', 'ses: an SNS topic whose notifications the feed takes (repeatable)', collect)
    .option('--public-key <base64>', 'sendgrid: the Event Webhook verification key')
    .option('--signing-key <key>', 'mailgun: the HTTP webhook signing key')
    .option('--signing-secret <secret>', 'resend: the webhook signing secret (whsec_...)')
    .option('--json', 'print one JSON line: {"feed_id","account_id","provider","path"} and the provider\'s fields')
    .action(async (options: CreateOptions) => {
      const input: FeedSettingsInput = {
        topicArns: options.topicArn,
        publicKey: options.publicKey,
        signingKey: options.signingKey,
        signingSecret: options.signingSecret,
      };
      const foreign = foreignOptions(options.provider, input);
      if (foreign.length > 0) throw new Error(`${foreign.join(', ')} is not an option of ${options.provider} feeds.`);
      const settings = feedSettings(options.provider, input);
      await withRuntime(async ({ db }) => {
        const account = await accountFor(db, options.account);
        const feed = await createFeed(db, {
          id: newFeedId(),
          accountId: account.id,
          provider: options.provider,
          verification: settings.verification,
        });
        if (options.json) {
          const line = {
            feed_id: feed.id,
            account_id: feed.accountId,
            provider: feed.provider,
            path: feedPath(feed.id),
            ...settings.shown,
          };
          process.stdout.write(`${JSON.stringify(line)}\n`);
          return;
        }
        printCreated(feed, account.name, settings.shown);
      });
    });

  feeds
    .command('list')
    .description('list feeds (never their secrets)')
    .option('--account <name-or-id>', 'only this account')
    .option('--json', 'print one JSON object per line')
    .action(async (options: { account?: string; json?: boolean }) => {
      await withRuntime(async ({ db }) => {
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
            process.stdout.write(`${JSON.stringify(line)}\n`);
          }
          return;
        }
        if (rows.length === 0) {
          process.stdout.write('No feeds.\n');
          return;
        }
        console.table(
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
      await withRuntime(async ({ db }) => {
        if (!(await removeFeed(db, feedId))) throw new Error(`No feed with id ${feedId}.`);
        process.stdout.write(`Removed feed ${feedId}.\n`);
      });
    });

  return feeds;
}
