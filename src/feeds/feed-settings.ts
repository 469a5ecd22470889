import type { FeedOption, FeedSettings, FeedSettingsInput } from './feed-provider.js';
import { FEED_PROVIDERS, feedProvider, type Provider, type VerificationOf } from './providers/index.js';

/** Checks the options a provider needs and turns them into what its requests are verified with. */
export function feedSettings<P extends Provider>(
  provider: P,
  input: FeedSettingsInput,
): FeedSettings<VerificationOf[P]> {
  return feedProvider(provider).settings.create(input);
}

/** An option of `feeds create`, with the providers that take it. */
export interface CreateOption extends FeedOption {
  providers: Provider[];
}

/** Every provider's options, each once, in the order of the providers: what `feeds create` accepts. */
export function createOptions(): CreateOption[] {
  const byKey = new Map<string, CreateOption>();
  for (const provider of FEED_PROVIDERS) {
    for (const option of provider.settings.options) {
      const known = byKey.get(option.key);
      if (known) known.providers.push(provider.name);
      else byKey.set(option.key, { ...option, providers: [provider.name] });
    }
  }
  return [...byKey.values()];
}

/** The options of other providers given by mistake, named so the command can refuse them. */
export function foreignOptions(provider: Provider, input: FeedSettingsInput): string[] {
  return createOptions()
    .filter((option) => !option.providers.includes(provider) && input[option.key]?.length)
    .map((option) => option.flags.split(' ')[0] as string);
}
