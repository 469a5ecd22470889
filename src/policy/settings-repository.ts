import {
  DEFAULT_BOUNCE_ACTIONS,
  type BounceActions,
  type BounceCategory,
  type BounceAction,
} from '../domain/bounce-categories.js';
import { DEFAULT_SETTINGS, type SettingsChange, type SuppressionSettings } from './settings.js';
import type { ComplaintScope } from '../domain/scope.js';
import type { SoftBounceRule } from './soft-bounce-rule.js';
import type { Queryable } from '../db/database.js';

interface SettingsRow {
  bounce_actions: Partial<Record<BounceCategory, BounceAction>>;
  soft_bounce_threshold: number | null;
  soft_bounce_window_days: number;
  expire_bounce_after_days: number | null;
  expire_complaint_after_days: number | null;
  expire_manual_after_days: number | null;
  complaint_scope: ComplaintScope;
}

const COLUMNS =
  'bounce_actions, soft_bounce_threshold, soft_bounce_window_days, expire_bounce_after_days, expire_complaint_after_days, expire_manual_after_days, complaint_scope';

/** The account's actions: those it set over the defaults. */
function actionsOf(stored: Partial<Record<BounceCategory, BounceAction>>): BounceActions {
  return { ...DEFAULT_BOUNCE_ACTIONS, ...stored };
}

function fromRow(row: SettingsRow): SuppressionSettings {
  return {
    bounce_actions: actionsOf(row.bounce_actions),
    soft_bounce_threshold: row.soft_bounce_threshold,
    soft_bounce_window_days: row.soft_bounce_window_days,
    expire_after_days: {
      bounce: row.expire_bounce_after_days,
      complaint: row.expire_complaint_after_days,
      manual: row.expire_manual_after_days,
    },
    complaint_scope: row.complaint_scope,
  };
}

/** The account's settings; the defaults when it never changed them. */
export async function getSettings(db: Queryable, accountId: string): Promise<SuppressionSettings> {
  const { rows } = await db.query<SettingsRow>({
    name: 'account-settings',
    text: `SELECT ${COLUMNS} FROM account_settings WHERE account_id = $1`,
    values: [accountId],
  });
  return rows[0] ? fromRow(rows[0]) : DEFAULT_SETTINGS;
}

/**
 * Applies a partial change (validated by the caller) in one statement and returns the settings as
 * they now are. Fields left out keep their values, concurrent changes to other fields included.
 */
export async function updateSettings(
  db: Queryable,
  accountId: string,
  change: SettingsChange,
): Promise<SuppressionSettings> {
  // For each column: whether the change sets it, and to what (null included).
  const fields: [string, boolean, number | string | null | undefined][] = [
    ['soft_bounce_threshold', 'soft_bounce_threshold' in change, change.soft_bounce_threshold],
    ['soft_bounce_window_days', 'soft_bounce_window_days' in change, change.soft_bounce_window_days],
    ['expire_bounce_after_days', 'bounce' in (change.expire_after_days ?? {}), change.expire_after_days?.bounce],
    [
      'expire_complaint_after_days',
      'complaint' in (change.expire_after_days ?? {}),
      change.expire_after_days?.complaint,
    ],
    ['expire_manual_after_days', 'manual' in (change.expire_after_days ?? {}), change.expire_after_days?.manual],
    ['complaint_scope', 'complaint_scope' in change, change.complaint_scope],
  ];
  const values: unknown[] = [accountId];
  const sets: string[] = [];
  const insertColumns: string[] = [];
  const insertValues: string[] = [];
  if (change.bounce_actions !== undefined) {
    values.push(JSON.stringify(change.bounce_actions));
    // Merged into what is stored, so a change of one category keeps the others.
    sets.push(`bounce_actions = account_settings.bounce_actions || $${values.length}::jsonb`);
    insertColumns.push('bounce_actions');
    insertValues.push(`$${values.length}::jsonb`);
  }
  for (const [column, given, value] of fields) {
    if (!given) continue;
    values.push(value ?? null);
    sets.push(`${column} = $${values.length}`);
    insertColumns.push(column);
    insertValues.push(`$${values.length}`);
  }
  const { rows } = await db.query<SettingsRow>({
    text: `INSERT INTO account_settings (account_id${insertColumns.map((column) => `, ${column}`).join('')})
           VALUES ($1${insertValues.map((value) => `, ${value}`).join('')})
           ON CONFLICT (account_id) DO UPDATE SET updated_at = now()${sets.map((set) => `, ${set}`).join('')}
           RETURNING ${COLUMNS}`,
    values,
  });
  return fromRow(rows[0] as SettingsRow);
}

/** What the event path needs of an account's policy. */
export interface EventPolicy {
  actions: BounceActions;
  /** The soft-bounce threshold and window; null when the account set no threshold. */
  softBounce: SoftBounceRule | null;
  complaintScope: ComplaintScope;
}

/** The soft-bounce rule of these settings; null when the threshold is off. */
function softBounceRuleOf(threshold: number | null, windowDays: number): SoftBounceRule | null {
  return threshold === null ? null : { threshold, windowDays };
}

export const DEFAULT_EVENT_POLICY: EventPolicy = Object.freeze({
  actions: DEFAULT_BOUNCE_ACTIONS,
  softBounce: softBounceRuleOf(DEFAULT_SETTINGS.soft_bounce_threshold, DEFAULT_SETTINGS.soft_bounce_window_days),
  complaintScope: DEFAULT_SETTINGS.complaint_scope,
});

/**
 * The policy of each of these accounts: its own when it changed its settings, DEFAULT_EVENT_POLICY
 * when it never did. Every account asked about is in the map, so the default threshold applies to
 * the accounts that have no settings row as to any other.
 */
export async function eventPolicies(db: Queryable, accountIds: readonly string[]): Promise<Map<string, EventPolicy>> {
  const { rows } = await db.query<{
    account_id: string;
    bounce_actions: Partial<Record<BounceCategory, BounceAction>>;
    soft_bounce_threshold: number | null;
    soft_bounce_window_days: number;
    complaint_scope: ComplaintScope;
  }>({
    name: 'event-policies',
    text: `SELECT account_id, bounce_actions, soft_bounce_threshold, soft_bounce_window_days, complaint_scope FROM account_settings
           WHERE account_id = ANY($1::uuid[])`,
    values: [accountIds],
  });
  const policies = new Map<string, EventPolicy>(accountIds.map((accountId) => [accountId, DEFAULT_EVENT_POLICY]));
  for (const row of rows) {
    policies.set(row.account_id, {
      actions: actionsOf(row.bounce_actions),
      softBounce: softBounceRuleOf(row.soft_bounce_threshold, row.soft_bounce_window_days),
      complaintScope: row.complaint_scope,
    });
  }
  return policies;
}
