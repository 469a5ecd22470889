import { completesWindow, SOFT_BOUNCE_ACTION, type SoftBounceRule } from '../policy/soft-bounce-rule.js';
import { isComplaint } from '../domain/complaint-feedback.js';
import type { Database } from '../db/database.js';
import { getSettings } from '../policy/settings-repository.js';
import {
  addReclassificationProgress,
  bounceEntriesAfter,
  countBounceEntries,
  databaseNow,
  deleteEntries,
  eventWritersInFlight,
  evidenceOf,
  finishReclassification,
  reclassificationById,
  startReclassification,
  writersState,
  type EvidenceRecord,
  type Reclassification,
  type ReclassificationProgress,
} from './reclassification-repository.js';
import type { BounceActions, BounceCategory } from '../domain/bounce-categories.js';
import { classifyBounce, type BounceClassification } from './bounce-classifier.js';
import {
  clearReclassificationEntries,
  writeReclassificationEntries,
  type ReclassificationEntry,
} from './reclassification-entries.js';

/** Entries read, judged and lifted together: one statement's locks and outbox rows stay small. */
export const RECLASSIFY_BATCH = 500;
/** How long a batch's lift waits for the writers of events in flight before it gives way. */
export const WRITERS_WAIT_MS = 10_000;
/** Times a batch is read and judged again after giving way, before the run fails. */
export const BATCH_ATTEMPTS = 5;

/** A lift that must not commit: evidence may have arrived. The batch is read and judged again. */
class GiveWay extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Judged {
  /** Whether any evidence, judged now, supports the entry. */
  supported: boolean;
  /** The latest bounce and the classifier's decision on it now, for the lifted entries' count and list. */
  latest: { record: EvidenceRecord; classification: BounceClassification } | null;
  /** The category of each bounce, oldest first. */
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
  let latest: Judged['latest'] = null;
  for (const record of records) {
    if (record.type === 'complaint') {
      if (isComplaint(record.complaint_feedback_type)) supported = true;
      continue;
    }
    const classification = classifyBounce({
      type: record.bounce_type,
      sub_type: record.bounce_sub_type,
      status: record.bounce_status,
      reply_code: record.bounce_reply_code,
      diagnostic: record.bounce_diagnostic,
      provider: record.bounce_provider,
      remote_mta: record.bounce_remote_mta,
    });
    const { category } = classification;
    latest = { record, classification };
    categories.push(category);
    if (actions[category] === 'suppress') supported = true;
    if (actions[category] === SOFT_BOUNCE_ACTION && record.occurred_at) counted.push(record.occurred_at.getTime());
  }
  if (!supported && rule && counted.length >= rule.threshold) {
    supported = counted.some((time) => completesWindow(counted, time, rule));
  }
  return { supported, latest, categories };
}

/** What the list of a run's entries says of an entry no evidence supports: its latest bounce, judged now. */
function listedEntry(entry: { id: string; email: string }, judged: Judged): ReclassificationEntry | null {
  if (judged.latest === null) return null;
  const { record, classification } = judged.latest;
  return {
    suppression_id: entry.id,
    email: entry.email,
    category: classification.category,
    reason: classification.reason,
    rule: classification.rule,
    bounces: judged.categories.length,
    bounce_type: record.bounce_type,
    bounce_sub_type: record.bounce_sub_type,
    bounce_status: record.bounce_status,
    bounce_reply_code: record.bounce_reply_code,
    bounce_diagnostic: record.bounce_diagnostic,
    bounce_provider: record.bounce_provider,
    bounce_remote_mta: record.bounce_remote_mta,
    occurred_at: record.occurred_at,
  };
}

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/**
 * Runs the current classifier and the account's current policy over the records of each of its
 * entries of origin `bounce`, and lifts (or, in a dry run, counts) every entry that no record
 * supports any more, listing each with its latest bounce for review. Entries without any bounce or
 * complaint record (imported, or added by hand with origin `bounce`) have nothing to re-examine
 * and stay. Progress is written after each batch; a run started again (its worker died) starts
 * from the beginning with an empty list, which is safe: what was lifted is gone and is not read again.
 */
export async function runReclassification(db: Database, id: string, signal?: AbortSignal): Promise<void> {
  const run = await reclassificationById(db, id);
  if (!run || run.status === 'completed' || run.status === 'failed') return;
  const settings = await getSettings(db, run.account_id);
  const policy: Policy = {
    actions: settings.bounce_actions,
    rule:
      settings.soft_bounce_threshold === null
        ? null
        : { threshold: settings.soft_bounce_threshold, windowDays: settings.soft_bounce_window_days },
  };
  await clearReclassificationEntries(db, id);
  await startReclassification(db, id, await countBounceEntries(db, run.account_id));

  let after: string | null = null;
  for (;;) {
    if (signal?.aborted) throw new Error('the run was stopped before it ended');
    const entries = await bounceEntriesAfter(db, run.account_id, after, RECLASSIFY_BATCH);
    if (entries.length === 0) break;
    after = (entries.at(-1) as { id: string }).id;
    await addReclassificationProgress(db, id, await reclassifyBatch(db, run, entries, policy, signal));
  }
  await finishReclassification(db, id);
}

interface Policy {
  actions: BounceActions;
  rule: SoftBounceRule | null;
}

function byEmail(records: readonly EvidenceRecord[]): Map<string, EvidenceRecord[]> {
  const grouped = new Map<string, EvidenceRecord[]>();
  for (const record of records) {
    const list = grouped.get(record.email);
    if (list) list.push(record);
    else grouped.set(record.email, [record]);
  }
  return grouped;
}

/**
 * Reads and judges one batch of entries and, in a real run, lifts those without support. A lift
 * that gives way (evidence may have arrived while it ran) is rolled back and the batch read again.
 */
async function reclassifyBatch(
  db: Database,
  run: Reclassification,
  entries: readonly { id: string; email: string }[],
  policy: Policy,
  signal: AbortSignal | undefined,
): Promise<ReclassificationProgress> {
  for (let attempt = 1; ; attempt += 1) {
    // Taken before the records are read: anything recorded after it, the run has not judged.
    const readAt = await databaseNow(db);
    const evidence = byEmail(
      await evidenceOf(
        db,
        run.account_id,
        entries.map((entry) => entry.email),
      ),
    );
    const progress: ReclassificationProgress = {
      entriesExamined: entries.length,
      entriesWithoutEvidence: 0,
      recordsExamined: 0,
      lifted: 0,
      liftedByCategory: {},
      recordsByCategory: {},
    };
    const unsupported = new Map<string, ReclassificationEntry>();
    for (const entry of entries) {
      const records = evidence.get(entry.email) ?? [];
      progress.recordsExamined += records.length;
      if (!records.some((record) => record.type === 'bounce')) {
        if (records.length === 0) progress.entriesWithoutEvidence += 1;
        continue;
      }
      const judged = judge(records, policy.actions, policy.rule);
      for (const category of judged.categories) bump(progress.recordsByCategory, category);
      const listed = judged.supported ? null : listedEntry(entry, judged);
      if (listed) unsupported.set(entry.id, listed);
    }
    let lifted: string[];
    try {
      if (run.dry_run) await writeReclassificationEntries(db, run.id, [...unsupported.values()]);
      lifted =
        run.dry_run || unsupported.size === 0
          ? [...unsupported.keys()]
          : await lift(db, run, unsupported, readAt, policy, signal);
    } catch (error) {
      if (!(error instanceof GiveWay)) throw error;
      if (attempt >= BATCH_ATTEMPTS) {
        throw new Error(`a batch of entries kept receiving events while it was lifted (${error.message})`, {
          cause: error,
        });
      }
      await sleep(50 * 2 ** attempt);
      continue;
    }
    for (const entryId of lifted) bump(progress.liftedByCategory, unsupported.get(entryId)?.category ?? 'unknown');
    progress.lifted = lifted.length;
    return progress;
  }
}

/**
 * Lifts the entries in one transaction, with their lines of the run's list, and commits only if
 * no evidence arrived meanwhile. The
 * delete passes over entries with a record newer than `readAt`. A writer of events that was in
 * flight when the delete ran may hold a record the run could not see (or have found the entry
 * still there and counted on it): the lift waits for each such writer to end, reads the lifted
 * addresses' records again, and gives way if any entry is supported now. A writer that reaches a
 * deleted entry while the lift is open waits for it; the lift gives way to it, so that writer
 * finds the entry and the batch is judged again with its record.
 */
async function lift(
  db: Database,
  run: Reclassification,
  unsupported: ReadonlyMap<string, ReclassificationEntry>,
  readAt: Date,
  policy: Policy,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  return db.withTransaction(async (client) => {
    const deleted = await deleteEntries(client, run.account_id, run.id, [...unsupported.keys()], readAt);
    if (deleted.length === 0) return [];
    const writers = await eventWritersInFlight(client);
    const deadline = Date.now() + WRITERS_WAIT_MS;
    for (let pause = 2; writers.length > 0; pause = Math.min(pause * 2, 50)) {
      const state = await writersState(client, writers);
      if (state.blocking) throw new GiveWay('a writer of events waits for an entry the batch lifts');
      if (!state.writing) break;
      if (signal?.aborted) throw new Error('the run was stopped before it ended');
      if (Date.now() > deadline) throw new GiveWay('writers of events in flight did not end in time');
      await sleep(pause);
    }
    const evidence = byEmail(
      await evidenceOf(
        client,
        run.account_id,
        deleted.map((entry) => entry.email),
        run.id,
      ),
    );
    const resupported = deleted.filter(
      (entry) => judge(evidence.get(entry.email) ?? [], policy.actions, policy.rule).supported,
    );
    if (resupported.length > 0) throw new GiveWay('evidence arrived for an entry the batch lifts');
    const listed = deleted.flatMap((entry) => unsupported.get(entry.id) ?? []);
    await writeReclassificationEntries(client, run.id, listed);
    return deleted.map((entry) => entry.id);
  });
}
