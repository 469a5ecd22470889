import type { Command, Option } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FeedSettingsError } from '../../src/feeds/feed-errors.js';
import type { FeedProvider } from '../../src/feeds/feed-provider.js';
import { createOptions, feedSettings, foreignOptions } from '../../src/feeds/feed-settings.js';
import type * as registryModule from '../../src/feeds/providers/index.js';
import { FEED_PROVIDERS, feedProvider, PROVIDERS } from '../../src/feeds/providers/index.js';

const REGISTRY = '../../src/feeds/providers/index.js';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A provider the registry does not hold, with an option of its own and one it shares with Mailgun. */
const sixth: FeedProvider<'sixth', { token: string }> = {
  name: 'sixth',
  title: 'Sixth',
  sourceIdNamespace: '0f6e1d2c-3b4a-4958-8776-655443322110',
  settings: {
    options: [
      { key: 'token', flags: '--token <token>', description: 'the webhook token' },
      { key: 'signingKey', flags: '--signing-key <key>', description: 'its signing key' },
    ],
    create: (input) => ({ verification: { token: String(input.token) }, shown: {} }),
    hints: ['Point it at the path.'],
  },
  scopeSources: [],
  verify: (_verification, request) => ({ text: request.body.toString('utf8'), delivery: {} }),
  map: () => ({ events: [], ignored: [] }),
};

function createCommand(feeds: Command): Command {
  const create = feeds.commands.find((command) => command.name() === 'create');
  if (!create) throw new Error('feeds has no create command');
  return create;
}

const flagsOf = (create: Command): string[] => create.options.map((option: Option) => option.flags);

/** Building the command reads and writes nothing: any context does. */
const context = { env: {}, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, exitCode: 0 };

afterEach(() => {
  vi.doUnmock(REGISTRY);
  vi.resetModules();
});

describe('the feed provider registry', () => {
  it('when the registry is read, then the provider list is its names, each found by its name', () => {
    expect(PROVIDERS).toEqual(['ses', 'sendgrid', 'postmark', 'mailgun', 'resend', 'kumomta', 'postal']);
    for (const provider of FEED_PROVIDERS) expect(feedProvider(provider.name)).toBe(provider);
  });

  it('when providers are registered, then each has its own source-id namespace, a UUID', () => {
    const namespaces = FEED_PROVIDERS.map((provider) => provider.sourceIdNamespace);
    expect(new Set(namespaces).size).toBe(namespaces.length);
    for (const namespace of namespaces) expect(namespace).toMatch(UUID);
  });

  it('when a provider is asked for by a name not registered, then that is an error', () => {
    expect(() => feedProvider('unknown' as 'ses')).toThrow('No feed provider is named "unknown".');
  });

  it('when feeds create is built, then it takes every provider’s options once, described with their providers, in the providers’ order', async () => {
    const { feedsCommand } = await import('../../cli/commands/feeds.js');
    const create = createCommand(feedsCommand(context));
    expect(flagsOf(create)).toEqual([
      '--account <name-or-id>',
      '--provider <provider>',
      '--topic-arn <arn>',
      '--public-key <base64>',
      '--signing-key <key>',
      '--signing-secret <secret>',
      '--postal-public-key <key>',
      '--scope-from <source>',
      '--json',
    ]);
    expect(create.options.find((option) => option.flags === '--provider <provider>')?.argChoices).toEqual(PROVIDERS);
    expect(create.options.find((option) => option.flags === '--topic-arn <arn>')?.description).toBe(
      'ses: an SNS topic whose notifications the feed takes (repeatable)',
    );
  });

  it('when a provider is given another provider’s option, then it is named as foreign; its own are not', () => {
    expect(foreignOptions('postmark', { signingKey: 'k', topicArns: ['arn'] })).toEqual([
      '--topic-arn',
      '--signing-key',
    ]);
    expect(foreignOptions('mailgun', { signingKey: 'k', publicKey: '' })).toEqual([]);
  });

  it('when a provider is added to the registry, then the CLI and the settings know it', async () => {
    vi.resetModules();
    vi.doMock(REGISTRY, async (importOriginal) => {
      const registry = await importOriginal<typeof registryModule>();
      return {
        ...registry,
        FEED_PROVIDERS: [...registry.FEED_PROVIDERS, sixth],
        PROVIDERS: [...registry.PROVIDERS, sixth.name],
        feedProvider: (name: string) => (name === sixth.name ? sixth : registry.feedProvider(name as 'ses')),
      };
    });
    const settings = await import('../../src/feeds/feed-settings.js');
    const { feedsCommand } = await import('../../cli/commands/feeds.js');
    const create = createCommand(feedsCommand(context));

    expect(create.options.find((option) => option.flags === '--provider <provider>')?.argChoices).toContain('sixth');
    expect(flagsOf(create)).toContain('--token <token>');
    expect(create.options.find((option) => option.flags === '--signing-key <key>')?.description).toBe(
      'mailgun, sixth: the HTTP webhook signing key',
    );
    expect(settings.feedSettings('sixth' as 'ses', { token: 't' })).toEqual({
      verification: { token: 't' },
      shown: {},
    });
    expect(settings.foreignOptions('mailgun', { token: 't' })).toEqual(['--token']);
    expect(settings.foreignOptions('sixth' as 'ses', { signingKey: 'k', token: 't' })).toEqual([]);
  });
});

describe('feed settings', () => {
  it('when a provider’s required option is missing or blank, then the error names it as the provider documents it', () => {
    expect(() => feedSettings('mailgun', {})).toThrow(
      new FeedSettingsError('A mailgun feed needs --signing-key <key>.'),
    );
    expect(() => feedSettings('resend', { signingSecret: ' ' })).toThrow(
      new FeedSettingsError('A resend feed needs --signing-secret <whsec_...>.'),
    );
    expect(() => feedSettings('ses', { topicArns: [] })).toThrow(
      new FeedSettingsError('An ses feed needs --topic-arn <arn> (one or more).'),
    );
  });

  it('when an SES feed is given the same topic twice, then it keeps it once and shows it', () => {
    const arn = 'arn:aws:sns:us-east-1:123456789012:bounces';
    expect(feedSettings('ses', { topicArns: [arn, ` ${arn}`] })).toEqual({
      verification: { topic_arns: [arn] },
      shown: { topic_arns: [arn] },
    });
  });

  it('when the options are listed, then each appears once with the providers that take it', () => {
    expect(createOptions().map((option) => [option.key, option.providers])).toEqual([
      ['topicArns', ['ses']],
      ['publicKey', ['sendgrid']],
      ['signingKey', ['mailgun']],
      ['signingSecret', ['resend']],
      ['postalPublicKey', ['postal']],
    ]);
  });
});
