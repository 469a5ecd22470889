import {
  BOUNCE_CATEGORIES,
  GIVEN_ORIGINS as ORIGINS,
  type BounceAction,
  type BounceCategory,
  type GivenOrigin as Origin,
  type SuppressionSettings,
} from '../api.js';
import { ACTION_NAMES, CATEGORIES } from '../bounces.js';
import { originName } from '../format.js';

/** The form as typed: numbers stay text until they are sent, so that the API can say what is wrong with them. */
export interface Draft {
  actions: Record<BounceCategory, BounceAction>;
  threshold: string;
  window: string;
  expiry: Record<Origin, string>;
}

export function draftOf(settings: SuppressionSettings): Draft {
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    actions: { ...settings.bounce_actions },
    threshold: text(settings.soft_bounce_threshold),
    window: text(settings.soft_bounce_window_days),
    expiry: {
      bounce: text(settings.expire_after_days.bounce),
      complaint: text(settings.expire_after_days.complaint),
      manual: text(settings.expire_after_days.manual),
    },
  };
}

/** Empty is null (off, never); a whole number is sent as one; anything else is sent as typed, for the API to refuse in words. */
export function valueOf(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export interface Change {
  body: Record<string, unknown>;
  /** What changed, in words, for the message after saving. */
  described: string[];
}

/** The PATCH body: only what differs from the saved settings. */
export function changeOf(saved: SuppressionSettings, draft: Draft): Change {
  const body: Record<string, unknown> = {};
  const described: string[] = [];
  const actions: Partial<Record<BounceCategory, BounceAction>> = {};
  for (const category of BOUNCE_CATEGORIES) {
    if (draft.actions[category] !== saved.bounce_actions[category]) {
      actions[category] = draft.actions[category];
      described.push(`${CATEGORIES[category].label}: ${ACTION_NAMES[draft.actions[category]]}`);
    }
  }
  if (Object.keys(actions).length > 0) body['bounce_actions'] = actions;
  const threshold = valueOf(draft.threshold);
  if (threshold !== saved.soft_bounce_threshold) {
    body['soft_bounce_threshold'] = threshold;
    described.push(`soft-bounce threshold: ${threshold === null ? 'off' : threshold}`);
  }
  const window = valueOf(draft.window);
  if (window !== saved.soft_bounce_window_days) {
    body['soft_bounce_window_days'] = window;
    described.push(`window: ${window ?? 'none'} days`);
  }
  const expiry: Partial<Record<Origin, number | string | null>> = {};
  for (const origin of ORIGINS) {
    const days = valueOf(draft.expiry[origin]);
    if (days !== saved.expire_after_days[origin]) {
      expiry[origin] = days;
      described.push(
        `${originName(origin).toLowerCase()} entries expire: ${days === null ? 'never' : `after ${days} days`}`,
      );
    }
  }
  if (Object.keys(expiry).length > 0) body['expire_after_days'] = expiry;
  return { body, described };
}

/** The field an API message names (`soft_bounce_threshold must be…`), to mark and focus it. */
export function fieldNamedIn(message: string): string | null {
  const fields: [RegExp, string][] = [
    [/soft_bounce_threshold/, 'threshold'],
    [/soft_bounce_window_days/, 'window'],
    ...ORIGINS.map((origin): [RegExp, string] => [new RegExp(`expire_after_days\\.${origin}`), `expire-${origin}`]),
    ...BOUNCE_CATEGORIES.map((category): [RegExp, string] => [
      new RegExp(`bounce_actions\\.${category}`),
      `action-${category}`,
    ]),
  ];
  return fields.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}

export function sentence(parts: readonly string[]): string {
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
