import { isScope } from '../domain/scope.js';

/**
 * Where a feed reads the scope of the message an event is about: the provider's own stream, group
 * or category, or a tag (metadata, custom argument, user variable) of a name the feed chooses.
 */
export type ScopeSource = 'stream' | 'configuration-set' | 'asm-group' | 'category' | 'tag' | `tag:${string}`;

/** The scope sources a provider's messages carry, as `feeds create --scope-from` names them. */
export type ScopeSourceKind = 'stream' | 'configuration-set' | 'asm-group' | 'category' | 'tag' | 'tag:<name>';

/** What one message says that a scope may be read from; each provider fills what it has. */
export interface MessageLabels {
  stream?: unknown;
  configurationSet?: unknown;
  asmGroup?: unknown;
  /** A category or tag list: its first item is read. */
  category?: unknown;
  tags?: unknown;
  /** The value of the tag (metadata key, custom argument, user variable) of this name. */
  named?: (name: string) => unknown;
}

const TAG_NAME = /^tag:(.{1,128})$/;

/** Whether the provider takes this source; the name after `tag:` is any text of 1 to 128 characters. */
export function acceptsScopeSource(kinds: readonly ScopeSourceKind[], source: string): source is ScopeSource {
  if (TAG_NAME.test(source)) return kinds.includes('tag:<name>');
  return (kinds as readonly string[]).includes(source);
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The scope the message names through the feed's source: its value trimmed and lower-cased (`Broadcast`
 * and `broadcast` are one stream), a number written out (SendGrid's group ids). None when the feed
 * reads none, the message has none, or its value cannot be a scope: the event is then for the whole
 * account, which for a complaint is the safer side.
 */
export function messageScope(source: ScopeSource | null, labels: MessageLabels): string | undefined {
  if (source === null) return undefined;
  const tag = TAG_NAME.exec(source);
  let value: unknown;
  if (tag) value = labels.named?.(tag[1] as string);
  else if (source === 'stream') value = labels.stream;
  else if (source === 'configuration-set') value = labels.configurationSet;
  else if (source === 'asm-group') value = labels.asmGroup;
  else if (source === 'category') value = first(labels.category);
  else value = first(labels.tags);
  value = first(value);
  if (typeof value === 'number' && Number.isInteger(value)) value = String(value);
  if (typeof value !== 'string') return undefined;
  const scope = value.trim().toLowerCase();
  return isScope(scope) ? scope : undefined;
}
