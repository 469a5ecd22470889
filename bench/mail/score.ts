import { readFileSync } from 'node:fs';
import { classifyBounce } from '../../src/bounces/bounce-classifier.js';
import type { BounceCategory } from '../../src/domain/bounce-categories.js';
import { parseMailMessage } from '../../src/mail/report/parse-mail-message.js';
import type { MailRecord, ParsedMailMessage } from '../../src/mail/report/mail-record.js';
import { MESSAGES_URL, type CorpusRecord, type CorpusRow } from './corpus-rows.js';

/** The fields scored, each as agreeing cases of the cases counted. */
export const FIELDS = ['record count', 'kind', 'status', 'reply code', 'recipients exact', 'category'] as const;
export type Field = (typeof FIELDS)[number];
export type Tally = Record<Field, { agree: number; of: number }>;

export function emptyTally(): Tally {
  return Object.fromEntries(FIELDS.map((field) => [field, { agree: 0, of: 0 }])) as Tally;
}

/** The category of a parsed record: an auto-reply is one by its kind; a failure is the classifier's. */
export function categoryOf(record: MailRecord, format: string): BounceCategory | null {
  if (record.kind === 'auto_reply') return 'auto_reply';
  if (record.kind !== 'bounce' && record.kind !== 'delay') return null;
  return classifyBounce({
    status: record.status,
    reply_code: record.reply_code,
    diagnostic: record.diagnostic,
    provider: format,
    remote_mta: record.remote_mta,
  }).category;
}

/** Expected and parsed records paired: by recipient where both name one, else in order. */
function pairs(
  expected: readonly CorpusRecord[],
  parsed: readonly MailRecord[],
): [CorpusRecord, MailRecord | undefined][] {
  const free = [...parsed];
  const take = (record: MailRecord | undefined): MailRecord | undefined => {
    if (record) free.splice(free.indexOf(record), 1);
    return record;
  };
  const byRecipient = expected.map((record) =>
    record.recipient === null
      ? undefined
      : take(free.find((candidate) => candidate.recipient?.toLowerCase() === record.recipient?.toLowerCase())),
  );
  return expected.map((record, index) => [record, byRecipient[index] ?? take(free[0])]);
}

export interface Mismatch {
  file: string;
  field: Field;
  expected: unknown;
  parsed: unknown;
}

/** Adds one message's agreement to the tally; returns its mismatches. */
export function scoreMessage(row: CorpusRow, parsed: ParsedMailMessage, tally: Tally): Mismatch[] {
  const mismatches: Mismatch[] = [];
  const count = (field: Field, agree: boolean, expected: unknown, got: unknown): void => {
    tally[field].of += 1;
    if (agree) tally[field].agree += 1;
    else mismatches.push({ file: row.file, field, expected, parsed: got });
  };
  count('record count', parsed.records.length === row.records.length, row.records.length, parsed.records.length);
  const expectedRecipients = row.records.map((record) => record.recipient);
  if (row.records.every((record) => record.kind === 'not_a_report' || record.recipient !== null)) {
    const want = expectedRecipients.filter((recipient): recipient is string => recipient !== null).sort();
    const got = parsed.records
      .map((record) => record.recipient)
      .filter((recipient): recipient is string => recipient !== null)
      .sort();
    count('recipients exact', JSON.stringify(want) === JSON.stringify(got), want, got);
  }
  for (const [expected, record] of pairs(row.records, parsed.records)) {
    count('kind', record?.kind === expected.kind, expected.kind, record?.kind);
    if (expected.kind === 'bounce' || expected.kind === 'delay') {
      if (expected.sisimai_status === undefined)
        count('status', (record?.status ?? null) === expected.status, expected.status, record?.status);
      if (expected.sisimai_reply_code === undefined) {
        count(
          'reply code',
          (record?.reply_code ?? null) === expected.reply_code,
          expected.reply_code,
          record?.reply_code,
        );
      }
    }
    if (expected.category !== null) {
      const category = record ? categoryOf(record, parsed.format) : null;
      count(
        'category',
        category === expected.category,
        expected.category,
        `${category} (${record?.diagnostic?.slice(0, 160)})`,
      );
    }
  }
  return mismatches;
}

export function readMessage(file: string): Buffer {
  return readFileSync(new URL(file, MESSAGES_URL));
}

export interface CorpusScore {
  overall: Tally;
  bySplit: Record<string, Tally>;
  byStyle: Record<string, Tally>;
  mismatches: Mismatch[];
}

/** Parses every scored message of the corpus and tallies its agreement with the expected records. */
export async function scoreCorpus(rows: readonly CorpusRow[]): Promise<CorpusScore> {
  const score: CorpusScore = { overall: emptyTally(), bySplit: {}, byStyle: {}, mismatches: [] };
  for (const row of rows) {
    if (row.records.length === 0) continue;
    const parsed = await parseMailMessage(readMessage(row.file));
    const one = emptyTally();
    score.mismatches.push(...scoreMessage(row, parsed, one));
    for (const tally of [
      score.overall,
      (score.bySplit[row.split] ??= emptyTally()),
      (score.byStyle[row.style] ??= emptyTally()),
    ]) {
      for (const field of FIELDS) {
        tally[field].agree += one[field].agree;
        tally[field].of += one[field].of;
      }
    }
  }
  return score;
}

export const share = (count: { agree: number; of: number }): number => (count.of === 0 ? 1 : count.agree / count.of);
