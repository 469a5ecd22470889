/**
 * Builds test/fixtures/mail/corpus.json (and copies the messages to test/fixtures/mail/sisimai/)
 * from Sisimai's public corpus:
 *
 *   npx tsx bench/mail/build-corpus.ts <set-of-emails git dir or checkout> <rb-sisimai git dir or checkout>
 *
 * The messages are set-of-emails' maildir/bsd/*.eml. The expected status, reply code, reason and
 * hard-bounce flag per recipient come from rb-sisimai's test/public/*.rb (per message index, per
 * recipient in order); its tests name the messages of its own copy (set-of-emails/maildir/bsd),
 * which are matched to today's names by content, as bench/classify/build-corpus.pl does. The
 * recipients are read from each message by this script's own plain reading (below), never by the
 * parser under test, and corrected by hand where that reading is wrong (RECIPIENT_REVIEW).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import prettier from 'prettier';
import type { BounceCategory } from '../../src/domain/bounce-categories.js';
import { splitOf } from './corpus-split.js';
import {
  CATEGORY_OF_REASON,
  CATEGORY_REVIEW,
  KIND_REVIEW,
  RECIPIENT_REVIEW,
  type CorpusRecord,
  type CorpusRow,
} from './corpus-rows.js';

const [soeDir, rbDir] = process.argv.slice(2);
if (!soeDir || !rbDir) {
  console.error('usage: npx tsx bench/mail/build-corpus.ts <set-of-emails dir> <rb-sisimai dir>');
  process.exit(2);
}
const OUT = new URL('../../test/fixtures/mail/', import.meta.url);

const git = (dir: string, ...args: string[]): Buffer =>
  execFileSync('git', ['-C', dir, ...args], { maxBuffer: 64 * 1024 * 1024 });
const list = (dir: string, under: string): string[] =>
  git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', under).toString('utf8').split('\n').filter(Boolean);
const show = (dir: string, path: string): Buffer => git(dir, 'show', `HEAD:${path}`);
const commitOf = (dir: string): string => git(dir, 'rev-parse', 'HEAD').toString('utf8').trim();
const sha1 = (data: Buffer): string => createHash('sha1').update(data).digest('hex');

interface Expectation {
  status: string;
  reply_code: string;
  reason: string;
  hardbounce: boolean;
  feedback_type: string | null;
}

/** rb-sisimai's expectations, by the stem its tests use (`lhost-postfix-02`), with the test file. */
function readExpectations(): Map<string, { rows: Expectation[]; test: string }> {
  const expectations = new Map<string, { rows: Expectation[]; test: string }>();
  for (const path of list(rbDir as string, 'test/public')) {
    if (!path.endsWith('.rb')) continue;
    const text = show(rbDir as string, path).toString('utf8');
    const kind = /module\s+(Lhost|Rhost)EngineTest::Public/.exec(text)?.[1];
    const module = /^\s+module\s+(\w+)\s*$/m.exec(text)?.[1];
    const body = /IsExpected\s*=\s*\{([\s\S]*?)\}\s*\n\s*end\b/.exec(text)?.[1];
    if (!kind || !module || !body) continue;
    const prefix = kind === 'Rhost' ? 'rhost-' : ['ARF', 'RFC3464', 'RFC3834'].includes(module) ? '' : 'lhost-';
    for (const entry of body.matchAll(/'(\d+)'\s*=>\s*\[([\s\S]*?)\]\s*\]/g)) {
      const rows: Expectation[] = [];
      for (const item of (entry[2] as string).matchAll(
        /\[\s*'([^']*)'\s*,\s*'([^']*)'\s*,\s*'([^']*)'\s*,\s*(true|false)(?:\s*,\s*'([^']*)')?/g,
      )) {
        rows.push({
          status: item[1] as string,
          reply_code: item[2] as string,
          reason: item[3] as string,
          hardbounce: item[4] === 'true',
          feedback_type: item[5] ?? null,
        });
      }
      const stem = `${prefix}${module.toLowerCase()}-${String(Number(entry[1])).padStart(2, '0')}`;
      if (rows.length > 0) expectations.set(stem, { rows, test: `${path} #${entry[1] as string}` });
    }
  }
  return expectations;
}

/** Files renamed upstream and edited since rb-sisimai's copy (so no content match); checked by hand. */
const RENAMED: Record<string, string> = {
  'rhost-aol-03': 'lhost-aol-03',
  'rhost-aol-04': 'lhost-aol-04',
  'rhost-aol-05': 'lhost-aol-05',
  'rhost-aol-06': 'lhost-aol-06',
  'rhost-messagelabs-01': 'lhost-messagelabs-01',
  'lhost-exim-56': 'lhost-exim-56',
  'lhost-postfix-30': 'lhost-postfix-30',
};

/** The category overrides of bench/classify/build-corpus.pl, written by reading each diagnostic. */
function classifyOverrides(): Map<string, { category: BounceCategory; note: string }> {
  const script = readFileSync(new URL('../classify/build-corpus.pl', import.meta.url), 'utf8');
  const data = script.slice(script.indexOf('__DATA__'));
  const overrides = new Map<string, { category: BounceCategory; note: string }>();
  for (const line of data.split('\n')) {
    const [id, category, note] = line.split('\t');
    if (id?.startsWith('sisimai-') && category && note)
      overrides.set(id, { category: category as BounceCategory, note });
  }
  return overrides;
}

/** Perl Sisimai 4.25's answers kept by the classifier corpus, for the messages rb-sisimai has no test for. */
function classifyCorpusRows(): Map<string, { status: string; reply_code: string; reason: string }> {
  const rows = parse<{ id: string; status: string; reply_code: string; sisimai_reason: string }>(
    readFileSync(new URL('../../test/fixtures/bounces/corpus.csv', import.meta.url), 'utf8'),
    { columns: true },
  );
  return new Map(
    rows.map((row) => [row.id, { status: row.status, reply_code: row.reply_code, reason: row.sisimai_reason }]),
  );
}

// ---------------------------------------------------------------------------------------------
// The plain reading of recipients: the DSN's recipient fields, the X-Failed-Recipients header, the
// feedback report's fields, the auto-reply's sender, or the enclosed original's To when it names
// as many addresses as Sisimai reports recipients.

const ADDRESS = /<?([^\s<>"';,()[\]]+@[A-Za-z0-9.-]+[A-Za-z0-9])>?/;
const lowerDomain = (address: string): string => {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
};

function unfoldedLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\n[ \t]+/g, ' ')
    .split('\n');
}

function fieldAddresses(lines: string[], name: RegExp): string[] {
  return lines.flatMap((line) => {
    const match = name.exec(line);
    if (!match) return [];
    const value = line.slice(match[0].length).replace(/^[^;]*;/, '');
    const address = ADDRESS.exec(value)?.[1];
    return address ? [lowerDomain(address)] : [];
  });
}

function dsnRecipients(lines: string[]): { recipients: string[]; actions: string[] } {
  const recipients: string[] = [];
  const actions: string[] = [];
  let pending: string | null = null;
  for (const line of lines) {
    const final = /^Final-Recipient\s*:/i.exec(line);
    if (final) {
      const address = ADDRESS.exec(line.slice(final[0].length).replace(/^[^;]*;/, ''))?.[1];
      if (pending !== null) actions.push('');
      pending = address ? lowerDomain(address) : '';
      recipients.push(pending);
      continue;
    }
    const action = /^Action\s*:\s*([A-Za-z]+)/i.exec(line);
    if (action && pending !== null) {
      actions.push((action[1] as string).toLowerCase());
      pending = null;
    }
  }
  if (pending !== null) actions.push('');
  return { recipients, actions };
}

function headerBlock(text: string): string[] {
  const normalized = text.replace(/\r\n?/g, '\n');
  const end = normalized.indexOf('\n\n');
  return unfoldedLines(end < 0 ? normalized : normalized.slice(0, end));
}

function enclosedTo(text: string): string[] {
  const normalized = text.replace(/\r\n?/g, '\n');
  const at = normalized.search(
    /\n(?:Content-Type:\s*(?:message\/rfc822|text\/rfc822-headers)[^\n]*\n(?:[^\n]+\n)*\n)/i,
  );
  if (at < 0) return [];
  const rest = normalized.slice(at + 1).replace(/^(?:[^\n]+\n)*\n/, '');
  const to = headerBlock(rest).find((line) => /^To\s*:/i.test(line));
  if (!to) return [];
  return [...to.matchAll(new RegExp(ADDRESS.source, 'g'))].map((match) => lowerDomain(match[1] as string));
}

/** The To of an original quoted in the body: a `To:` line at the start of a line among other header lines. */
function quotedTo(raw: string): string[] {
  const lines = unfoldedLines(raw);
  const bodyStart = lines.indexOf('');
  for (let index = bodyStart + 1; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (!/^To\s*:/i.test(line)) continue;
    const near = lines.slice(Math.max(bodyStart + 1, index - 8), index + 8);
    if (!near.some((other) => /^(?:Received|Return-Path|Message-Id|From|Subject|Date)\s*:/i.test(other))) continue;
    return [...line.matchAll(new RegExp(ADDRESS.source, 'g'))].map((match) => lowerDomain(match[1] as string));
  }
  return [];
}

interface Reading {
  recipients: (string | null)[];
  actions: string[];
  from: string;
}

/**
 * Whether the message is a warning that the MTA keeps trying, read plainly: a subject that says
 * delayed or warning, and a sentence that says delivery goes on.
 */
function isDelayWarning(raw: string): boolean {
  const subject = headerBlock(raw).find((line) => /^Subject\s*:/i.test(line)) ?? '';
  return (
    /delay|warning/i.test(subject) &&
    /will be retried|will continue|no action is required|still trying|will keep trying|is delayed for more than/i.test(
      raw,
    )
  );
}

function readRecipients(raw: string, expected: Expectation[]): Reading {
  const lines = unfoldedLines(raw);
  const header = headerBlock(raw);
  const failed = expected.filter((row) => row.reason !== 'delivered').length;
  const dsn = dsnRecipients(lines);
  const kept = dsn.recipients.filter(
    (_, index) => !['delivered', 'relayed', 'expanded'].includes(dsn.actions[index] ?? ''),
  );
  if (kept.length === failed && kept.every(Boolean))
    return { recipients: kept, actions: dsn.actions, from: 'DSN Final-Recipient fields' };
  if (expected.every((row) => row.reason === 'feedback')) {
    const named = [
      ...new Set([
        ...fieldAddresses(lines, /^Original-Rcpt-To\s*:/i),
        ...fieldAddresses(lines, /^Removal-Recipient\s*:/i),
      ]),
    ];
    if (named.length === failed)
      return { recipients: named, actions: [], from: 'ARF Original-Rcpt-To / Removal-Recipient' };
    const to = enclosedTo(raw);
    if (to.length === failed) return { recipients: to, actions: [], from: "the enclosed original's To" };
  }
  if (expected.every((row) => row.reason === 'vacation')) {
    const from = fieldAddresses(header, /^From\s*:/i);
    if (from.length === 1) return { recipients: from, actions: [], from: "the auto-reply's From" };
  }
  const ses = [...raw.matchAll(/"(?:bouncedRecipients|complainedRecipients)":\[([^\]]*)\]/g)].flatMap((list) =>
    [...(list[1] as string).matchAll(/"emailAddress":"([^"]+)"/g)].map((match) => lowerDomain(match[1] as string)),
  );
  if (ses.length === failed) return { recipients: ses, actions: [], from: "Amazon SES notification's emailAddress" };
  const xFailed = header
    .filter((line) => /^X-Failed-Recipients\s*:/i.test(line))
    .flatMap((line) =>
      [...line.matchAll(new RegExp(ADDRESS.source, 'g'))].map((match) => lowerDomain(match[1] as string)),
    );
  if (xFailed.length === failed) return { recipients: xFailed, actions: [], from: 'X-Failed-Recipients header' };
  const to = enclosedTo(raw);
  if (to.length === failed) return { recipients: to, actions: [], from: "the enclosed original's To" };
  const quoted = quotedTo(raw);
  if (quoted.length === failed) return { recipients: quoted, actions: [], from: "the quoted original's To" };
  return { recipients: expected.map(() => null), actions: dsn.actions, from: 'not read' };
}

// ---------------------------------------------------------------------------------------------

const SE_COMMIT = commitOf(soeDir);
const RB_COMMIT = commitOf(rbDir);
const expectations = readExpectations();
const rbByHash = new Map<string, string[]>();
for (const path of list(rbDir, 'set-of-emails/maildir/bsd')) {
  if (!path.endsWith('.eml')) continue;
  const stem = path
    .split('/')
    .pop()!
    .replace(/\.eml$/, '');
  const hash = sha1(show(rbDir, path));
  rbByHash.set(hash, [...(rbByHash.get(hash) ?? []), stem]);
}
const overrides = classifyOverrides();
const perlRows = classifyCorpusRows();

// The classifier corpus keeps one row per distinct text, so its overrides name one of several
// byte-identical copies (rfc3464-51 is rhost-gsuite-01): they hold for every copy.
const contentOf = new Map<string, string>();
for (const path of list(soeDir, 'maildir/bsd')) {
  if (path.endsWith('.eml'))
    contentOf.set(
      path
        .split('/')
        .pop()!
        .replace(/\.eml$/, ''),
      sha1(show(soeDir, path)),
    );
}
const overridesByContent = new Map<string, { category: BounceCategory; note: string }>();
for (const [id, override] of overrides) {
  const match = /^sisimai-(.+)-(\d+)$/.exec(id);
  const hash = match ? contentOf.get(match[1] as string) : undefined;
  if (match && hash) overridesByContent.set(`${hash}#${match[2] as string}`, override);
}

mkdirSync(new URL('sisimai/', OUT), { recursive: true });
writeFileSync(new URL('sisimai/LICENSE', OUT), show(soeDir, 'LICENSE'));

const rows: CorpusRow[] = [];
for (const path of list(soeDir, 'maildir/bsd')) {
  if (!path.endsWith('.eml')) continue;
  const file = path.split('/').pop()!;
  const stem = file.replace(/\.eml$/, '');
  const bytes = show(soeDir, path);
  writeFileSync(new URL(`sisimai/${file}`, OUT), bytes);
  const raw = bytes.toString('latin1');
  const style = /^(?:lhost|rhost)-(.+)-\d+$/.exec(stem)?.[1] ?? stem.replace(/-\d+$/, '');
  const notes: string[] = [];

  const sameContent = rbByHash.get(sha1(bytes)) ?? [];
  const names = [...sameContent.filter((name) => name === stem), ...sameContent.filter((name) => name !== stem)];
  if (RENAMED[stem]) names.push(RENAMED[stem]);
  const found = names.map((name) => ({ name, expectation: expectations.get(name) })).find((item) => item.expectation);
  let expected: Expectation[];
  let source = `sisimai/set-of-emails@${SE_COMMIT.slice(0, 7)} maildir/bsd/${file}; expected: `;
  if (found?.expectation) {
    expected = found.expectation.rows;
    source += `rb-sisimai@${RB_COMMIT.slice(0, 7)} ${found.expectation.test}${found.name === stem ? '' : ` (as ${found.name})`}`;
  } else {
    expected = [];
    for (let index = 1; perlRows.has(`sisimai-${stem}-${index}`); index += 1) {
      const row = perlRows.get(`sisimai-${stem}-${index}`)!;
      expected.push({
        ...row,
        hardbounce: ['userunknown', 'hostunknown', 'hasmoved', 'notaccept'].includes(row.reason),
        feedback_type: null,
      });
    }
    source += expected.length > 0 ? 'Perl Sisimai 4.25, as kept in test/fixtures/bounces/corpus.csv' : 'none';
  }

  const reading = readRecipients(raw, expected);
  const review = RECIPIENT_REVIEW[stem];
  if (review) notes.push(`recipients read by hand: ${review.note}`);
  const recipients = review ? review.recipients : reading.recipients;

  let records: CorpusRecord[];
  if (expected.length === 0) {
    records = [];
    notes.push('no Sisimai expectation for this message; not scored');
  } else if (KIND_REVIEW[stem]?.kind === 'not_a_report') {
    const row = expected[0] as Expectation;
    records = [
      {
        kind: 'not_a_report',
        recipient: null,
        status: null,
        reply_code: null,
        reason: row.reason,
        hardbounce: row.hardbounce,
        feedback_type: null,
        category: null,
        disagreement: KIND_REVIEW[stem].note,
      },
    ];
  } else if (expected.every((row) => row.reason === 'delivered')) {
    records = [
      {
        kind: 'not_a_report',
        recipient: null,
        status: null,
        reply_code: null,
        reason: 'delivered',
        hardbounce: false,
        feedback_type: null,
        category: null,
      },
    ];
    notes.push('Sisimai reports only delivered recipients: a report of success, no failure');
  } else {
    const failing = expected.filter((row) => row.reason !== 'delivered');
    const failingActions = reading.actions.filter(
      (action) => !['delivered', 'relayed', 'expanded', 'deliverable'].includes(action),
    );
    const warning = isDelayWarning(raw);
    if (warning && !failingActions.includes('delayed')) {
      notes.push('a warning that delivery is still being tried (Sisimai has no such kind): expected kind delay');
    }
    records = failing.map((row, index) => {
      const id = `sisimai-${stem}-${expected.indexOf(row) + 1}`;
      const override =
        CATEGORY_REVIEW[`${stem}#${expected.indexOf(row) + 1}`] ??
        overrides.get(id) ??
        overridesByContent.get(`${sha1(bytes)}#${expected.indexOf(row) + 1}`);
      const kind =
        row.reason === 'feedback'
          ? 'complaint'
          : row.reason === 'vacation'
            ? 'auto_reply'
            : failingActions[index] === 'delayed' || (warning && failingActions.length === 0)
              ? 'delay'
              : 'bounce';
      const carried = (value: string): string | null => (value !== '' && raw.includes(value) ? value : null);
      const record: CorpusRecord = {
        kind,
        recipient: recipients[index] ?? null,
        status: carried(row.status),
        reply_code: carried(row.reply_code),
        reason: row.reason,
        hardbounce: row.hardbounce,
        feedback_type: row.feedback_type,
        category: kind === 'complaint' ? null : (override?.category ?? CATEGORY_OF_REASON[row.reason] ?? 'unknown'),
      };
      if (row.status !== '' && record.status === null) record.sisimai_status = row.status;
      if (row.reply_code !== '' && record.reply_code === null) record.sisimai_reply_code = row.reply_code;
      if (override) record.disagreement = override.note;
      return record;
    });
  }
  rows.push({
    file,
    style,
    split: splitOf(file),
    source,
    recipients_from: review ? 'read by hand' : reading.from,
    records,
    ...(notes.length > 0 ? { notes } : {}),
  });
}

rows.sort((left, right) => left.file.localeCompare(right.file));
const json = await prettier.format(JSON.stringify(rows), { parser: 'json', printWidth: 120 });
writeFileSync(new URL('corpus.json', OUT), json);
const scored = rows.filter((row) => row.records.length > 0);
console.log(
  `${rows.length} messages, ${scored.length} scored (${scored.filter((row) => row.split === 'held_out').length} held out), ${scored.reduce((sum, row) => sum + row.records.length, 0)} records, ${scored.filter((row) => row.records.some((record) => record.recipient === null && record.kind !== 'not_a_report')).length} with recipients not read`,
);
