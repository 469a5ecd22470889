import type { ReclassificationEntryResource } from '../contract/reclassification-entries.js';
import type { Queryable } from '../db/database.js';
import { keysetPage, keysetPlan, type KeysetQuery } from '../db/keyset-page.js';
import type { BounceCategory, BounceReason } from '../domain/bounce-categories.js';
import type { BounceEvidenceColumns } from '../domain/event-columns.js';

/** An entry a run lifted (in a dry run, would lift), as `bounce_reclassification_entries` holds it. */
export interface ReclassificationEntry extends BounceEvidenceColumns {
  suppression_id: string;
  email: string;
  category: BounceCategory;
  reason: BounceReason;
  rule: string;
  bounces: number;
  occurred_at: Date | null;
}

const COLUMNS = `suppression_id, email, category, reason, rule, bounces, bounce_type, bounce_sub_type, bounce_status,
  bounce_reply_code, bounce_diagnostic, bounce_provider, bounce_remote_mta, occurred_at`;

/**
 * Writes the entries one batch of a run lifted or would lift. An entry written before (the batch
 * judged again after giving way) is kept as it was.
 */
export async function writeReclassificationEntries(
  db: Queryable,
  runId: string,
  entries: readonly ReclassificationEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await db.query({
    text: `INSERT INTO bounce_reclassification_entries (reclassification_id, ${COLUMNS})
           SELECT $1, e.* FROM jsonb_to_recordset($2::jsonb) AS e(suppression_id uuid, email text, category text,
             reason text, rule text, bounces integer, bounce_type text, bounce_sub_type text, bounce_status text,
             bounce_reply_code text, bounce_diagnostic text, bounce_provider text, bounce_remote_mta text,
             occurred_at timestamptz)
           ON CONFLICT (reclassification_id, suppression_id) DO NOTHING`,
    values: [runId, JSON.stringify(entries)],
  });
}

/** Forgets what a run found: a run started again finds it again from nothing. */
export async function clearReclassificationEntries(db: Queryable, runId: string): Promise<void> {
  await db.query({
    text: 'DELETE FROM bounce_reclassification_entries WHERE reclassification_id = $1',
    values: [runId],
  });
}

/** A run's entries, newest entry first, a keyset page at a time (the cursors are entry ids). */
export async function listReclassificationEntries(
  db: Queryable,
  runId: string,
  query: KeysetQuery<string>,
): Promise<{ entries: ReclassificationEntry[]; hasMore: boolean }> {
  const values: unknown[] = [runId];
  const plan = keysetPlan('suppression_id', query, values);
  const { rows } = await db.query<ReclassificationEntry>({
    text: `SELECT ${COLUMNS} FROM bounce_reclassification_entries
           WHERE reclassification_id = $1 ${plan.condition}
           ORDER BY suppression_id ${plan.direction} LIMIT ${plan.limit}`,
    values,
  });
  const page = keysetPage(rows, query.limit, plan);
  return { entries: page.rows, hasMore: page.hasMore };
}

/** Every entry of a run, newest first, read a page at a time: for a file of any length. */
export async function* allReclassificationEntries(
  db: Queryable,
  runId: string,
  pageSize = 500,
): AsyncGenerator<ReclassificationEntry> {
  let after: string | undefined;
  for (;;) {
    const page = await listReclassificationEntries(db, runId, { limit: pageSize, after });
    yield* page.entries;
    if (!page.hasMore) return;
    after = page.entries.at(-1)?.suppression_id;
  }
}

/** The public shape of an entry, as `GET /bounces/reclassifications/{id}/entries` lists it. */
export function toReclassificationEntryResource(entry: ReclassificationEntry): ReclassificationEntryResource {
  return {
    object: 'bounce_reclassification_entry',
    id: entry.suppression_id,
    email: entry.email,
    category: entry.category,
    reason: entry.reason,
    rule: entry.rule,
    bounces: entry.bounces,
    latest_bounce: {
      type: entry.bounce_type,
      sub_type: entry.bounce_sub_type,
      status: entry.bounce_status,
      reply_code: entry.bounce_reply_code,
      diagnostic: entry.bounce_diagnostic,
      provider: entry.bounce_provider,
      remote_mta: entry.bounce_remote_mta,
      occurred_at: entry.occurred_at?.toISOString() ?? null,
    },
  };
}
