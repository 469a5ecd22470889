import { completesWindow, type SoftBounceRule } from '../events/soft-bounce-threshold.js';
import { isComplaint } from '../events/classify.js';
import type { Database } from '../db/database.js';
import { getSettings } from '../db/settings-repository.js';
import {
  addReclassificationProgress,
  bounceEntriesAfter,
  countBounceEntries,
  databaseNow,
  evidenceOf,
  finishReclassification,
  liftEntries,
  reclassificationById,
  startReclassification,
  type EvidenceRecord,
  type ReclassificationProgress,
} from '../db/reclassification-repository.js';
import type { BounceActions, BounceCategory } from './categories.js';
import { classifyBounce } from './classify-bounce.js';

/** Entries read, judged and lifted together: one statement's locks and outbox rows stay small. */
export const RECLASSIFY_BATCH = 500;

interface Judged {
  /** Whether any evidence, judged now, supports the entry. */
  supported: boolean;
  /** The category of the latest bounce, for the count of lifted entries. */
  latestCategory: BounceCategory | null;
  categories: BounceCategory[];
}

/**
 * Whether an address's records still support its entry under the current classifier and policy:
 * a complaint that is one, a bounce whose category's action is `suppress`, or, with a threshold,
 * enough bounces whose action is `count` within the window.
 */
export function judge(records: readonly EvidenceRecord[], actions: BounceActions, rule: SoftBounceRule | null): Judged {
  const categories: BounceCategory[] = [];
  const counted: number[] = [];
  let supported = false;
  for (const record of records) {
    if (record.type === 'complaint') {
      if (isComplaint(record.complaint_feedback_type)) supported = true;
      continue;
    }
    const { category } = classifyBounce({
      type: record.bounce_type,
      sub_type: record.bounce_sub_type,
      status: record.bounce_status,
      reply_code: record.bounce_reply_code,
      diagnostic: record.bounce_diagnostic,
      provider: record.bounce_provider,
      remote_mta: record.bounce_remote_mta,
    });
    categories.push(category);
    if (actions[category] === 'suppress') supported = true;
    if (actions[category] === 'count' && record.occurred_at) counted.push(record.occurred_at.getTime());
  }
  if (!supported && rule && counted.length >= rule.threshold) {
    supported = counted.some((time) => completesWindow(counted, time, rule));
  }
  return { supported, latestCategory: categories.at(-1) ?? null, categories };
}

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/**
 * Runs the current classifier and the account's current policy over the records of each of its
 * entries of origin `bounce`, and lifts (or, in a dry run, counts) every entry that no record
 * supports any more. Entries without any bounce or complaint record (imported, or added by hand
 * with origin `bounce`) have nothing to re-examine and stay. Progress is written after each batch;
 * a run started again (its worker died) starts from the beginning, which is safe: what was lifted
 * is gone and is not read again.
 */
export async function runReclassification(db: Database, id: string, signal?: AbortSignal): Promise<void> {
  const run = await reclassificationById(db, id);
  if (!run || run.status === 'completed' || run.status === 'failed') return;
  const settings = await getSettings(db, run.account_id);
  const rule =
    settings.soft_bounce_threshold === null
      ? null
      : { threshold: settings.soft_bounce_threshold, windowDays: settings.soft_bounce_window_days };
  await startReclassification(db, id, await countBounceEntries(db, run.account_id));

  let after: string | null = null;
  for (;;) {
    if (signal?.aborted) throw new Error('the run was stopped before it ended');
    const entries = await bounceEntriesAfter(db, run.account_id, after, RECLASSIFY_BATCH);
    if (entries.length === 0) break;
    after = (entries.at(-1) as { id: string }).id;
    const readAt = await databaseNow(db);
    const records = await evidenceOf(
      db,
      run.account_id,
      entries.map((entry) => entry.email),
    );
    const byEmail = new Map<string, EvidenceRecord[]>();
    for (const record of records) byEmail.set(record.email, [...(byEmail.get(record.email) ?? []), record]);

    const progress: ReclassificationProgress = {
      entriesExamined: entries.length,
      entriesWithoutEvidence: 0,
      recordsExamined: records.length,
      lifted: 0,
      liftedByCategory: {},
      recordsByCategory: {},
    };
    const unsupported = new Map<string, BounceCategory | null>();
    for (const entry of entries) {
      const evidence = byEmail.get(entry.email) ?? [];
      if (!evidence.some((record) => record.type === 'bounce')) {
        if (evidence.length === 0) progress.entriesWithoutEvidence += 1;
        continue;
      }
      const judged = judge(evidence, settings.bounce_actions, rule);
      for (const category of judged.categories) bump(progress.recordsByCategory, category);
      if (!judged.supported) unsupported.set(entry.id, judged.latestCategory);
    }
    const lifted = run.dry_run
      ? [...unsupported.keys()]
      : await liftEntries(db, run.account_id, id, [...unsupported.keys()], readAt);
    for (const entryId of lifted) bump(progress.liftedByCategory, unsupported.get(entryId) ?? 'unknown');
    progress.lifted = lifted.length;
    await addReclassificationProgress(db, id, progress);
  }
  await finishReclassification(db, id);
}
