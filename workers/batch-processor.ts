import { coveringRules } from '../src/allowlist/allowlist-repository.js';
import { UnrecoverableError, type Job } from 'bullmq';
import { accountExists } from '../src/accounts/account-repository.js';
import type { Database } from '../src/db/database.js';
import { recordImportJobOutcome } from '../src/imports/import-repository.js';
import { addSuppressions } from '../src/suppressions/suppression-repository.js';
import { removeSuppressions } from '../src/suppressions/suppression-removal.js';
import {
  InvalidBatchError,
  parseAddBatch,
  parseRemoveBatch,
  type BatchResult,
  type InvalidEntry,
  type RemoveBatch,
} from '../src/batches/batch-schema.js';
import { noBatchCounts } from '../src/batches/batch-counts.js';
import { partitionEmails } from '../src/domain/email-batch.js';
import { isUuid, newId } from '../src/domain/ids.js';

/** Rows per statement: large enough to amortise a round trip, small enough to keep locks short. */
const ROWS_PER_STATEMENT = 2000;
const MAX_REPORTED_INVALID = 100;
const MAX_REPORTED_PROTECTED = 100;

/** A result with nothing counted yet; each list of entries follows its count, in the order docs/lists.md shows. */
function emptyResult(total: number): BatchResult {
  const { duplicates, invalid, ...upToProtected } = noBatchCounts();
  return { total, ...upToProtected, protected_entries: [], duplicates, invalid, invalid_entries: [] };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

function noteInvalid(result: BatchResult, invalid: InvalidEntry[]): void {
  result.invalid = invalid.length;
  result.invalid_entries = invalid.slice(0, MAX_REPORTED_INVALID);
}

/** Ids as UUIDs, lower-cased and each once; anything else reported as invalid. */
function partitionIds(raw: readonly string[]): { valid: string[]; invalid: InvalidEntry[] } {
  const seen = new Set<string>();
  const valid: string[] = [];
  const invalid: InvalidEntry[] = [];
  raw.forEach((value, index) => {
    const id = value.trim().toLowerCase();
    if (!isUuid(id)) invalid.push({ index, value, reason: 'is not a suppression id (a UUID)' });
    else if (!seen.has(id)) {
      seen.add(id);
      valid.push(id);
    }
  });
  return { valid, invalid };
}

async function requireAccount(db: Database, accountId: string): Promise<void> {
  if (!(await accountExists(db, accountId)))
    throw new UnrecoverableError(`invalid batch: account ${accountId} does not exist`);
}

function parseOrFail<T>(parse: (data: unknown) => T, data: unknown): T {
  try {
    return parse(data);
  } catch (error) {
    if (error instanceof InvalidBatchError) throw new UnrecoverableError(error.message);
    throw error;
  }
}

/**
 * An import's job records its counts with the import as it ends. A failure to record is left to
 * the import's readers, who find the job's result in the queue: the entries themselves are written.
 */
async function recordForImport(db: Database, importId: string, job: Job, result: BatchResult): Promise<void> {
  try {
    await recordImportJobOutcome(db, importId, job.id ?? '', result.total, result);
  } catch {
    return;
  }
}

async function processAdd(db: Database, job: Job): Promise<BatchResult> {
  const batch = parseOrFail(parseAddBatch, job.data);
  await requireAccount(db, batch.account_id);
  const result = emptyResult(batch.emails.length);
  const { valid, invalid } = partitionEmails(batch.emails);
  noteInvalid(result, invalid);
  result.duplicates = batch.emails.length - invalid.length - valid.length;
  let processed = result.invalid + result.duplicates;
  for (const chunk of chunks(valid, ROWS_PER_STATEMENT)) {
    const covered = new Set((await coveringRules(db, batch.account_id, chunk)).map(({ email }) => email));
    result.allowlisted += covered.size;
    const added = await addSuppressions(
      db,
      batch.account_id,
      chunk
        .filter((email) => !covered.has(email))
        .map((email) => ({
          id: newId(),
          email,
          origin: batch.origin,
          sourceId: batch.source_id,
          scope: batch.scope,
        })),
      // A producer on the batches queue: the import it belongs to, when it is one.
      { type: 'queue', id: batch.import_id ?? null },
    );
    const created = added.filter((entry) => entry.created).length;
    result.added += created;
    result.already_present += added.length - created;
    processed += chunk.length;
    await job.updateProgress({ processed, total: result.total });
  }
  if (batch.import_id !== undefined) await recordForImport(db, batch.import_id, job, result);
  return result;
}

/**
 * Removes the chunk's entries but, without the job's `force`, those a complaint put on the list:
 * they are counted `protected` and named, and the others removed. A removal refused for entries
 * that arrived since is tried again without them.
 */
async function removeUnprotected(
  db: Database,
  batch: RemoveBatch,
  chunk: readonly string[],
  result: BatchResult,
): Promise<string[]> {
  const options = {
    keyId: null,
    force: batch.force,
    reason: batch.reason ?? null,
    actor: { type: 'queue' as const, id: null },
  };
  let pending = chunk;
  for (;;) {
    const target = batch.ids ? { ids: pending } : { emails: pending, scope: batch.scope };
    const removal = await removeSuppressions(db, batch.account_id, target, options);
    if ('removed' in removal) {
      result.not_found += pending.length - removal.removed.length;
      return removal.removed;
    }
    result.protected += removal.refused.length;
    const room = MAX_REPORTED_PROTECTED - result.protected_entries.length;
    if (room > 0) result.protected_entries.push(...removal.refused.slice(0, room));
    const refused = new Set(removal.refused.map((entry) => (batch.ids ? entry.id : entry.email)));
    const rest = pending.filter((key) => !refused.has(key));
    // Each refusal names entries of the chunk, so the chunk shrinks every time round.
    if (rest.length === pending.length) throw new Error('a removal was refused for entries it was not asked for');
    pending = rest;
    if (pending.length === 0) return [];
  }
}

async function processRemove(db: Database, job: Job): Promise<BatchResult> {
  const batch = parseOrFail(parseRemoveBatch, job.data);
  await requireAccount(db, batch.account_id);
  const raw = batch.ids ?? batch.emails ?? [];
  const result = emptyResult(raw.length);
  const { valid, invalid } = batch.ids ? partitionIds(raw) : partitionEmails(raw);
  noteInvalid(result, invalid);
  result.duplicates = raw.length - invalid.length - valid.length;
  let processed = result.invalid + result.duplicates;
  for (const chunk of chunks(valid, ROWS_PER_STATEMENT)) {
    const removed = await removeUnprotected(db, batch, chunk, result);
    result.removed += removed.length;
    processed += chunk.length;
    await job.updateProgress({ processed, total: result.total });
  }
  return result;
}

/**
 * Runs one `suppression-batches` job: `add` or `remove`, in multi-row statements, reporting
 * progress after each. Bad entries are counted and reported, not fatal; a bad job or an unknown
 * account fails at once. A retried job redoes only what is still to do: adding is idempotent, and
 * what an earlier attempt removed now counts as not found.
 */
export function processBatch(db: Database, job: Job): Promise<BatchResult> {
  if (job.name === 'add') return processAdd(db, job);
  if (job.name === 'remove') return processRemove(db, job);
  return Promise.reject(
    new UnrecoverableError(`invalid batch: unknown job name "${job.name}" (expected add or remove)`),
  );
}
