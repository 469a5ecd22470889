/**
 * The entries of the scale benchmark, as a pure function of their index: entry `i` belongs to
 * account `i % accounts`, has one address, origin, creation time and id, whatever step loads it,
 * so a measurement can name present addresses (index below the size loaded) and absent ones (above)
 * without reading them back.
 */
import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';

export const SPAN_MONTHS = 24;
const DAY_MS = 24 * 60 * 60 * 1000;
export const SPAN_MS = 730 * DAY_MS;

const FIRST_NAMES = [
  'maria',
  'james',
  'anna',
  'john',
  'sofia',
  'david',
  'laura',
  'michael',
  'emma',
  'robert',
  'olivia',
  'daniel',
  'lucas',
  'julia',
  'thomas',
  'sarah',
  'peter',
  'elena',
  'marco',
  'chloe',
  'noah',
  'lea',
  'paul',
  'mia',
  'ali',
  'fatima',
  'wei',
  'yuki',
  'carlos',
  'ines',
  'ahmed',
  'nina',
  'oscar',
  'ida',
  'jan',
  'eva',
  'luca',
  'zoe',
  'hugo',
  'ava',
  'ben',
  'lina',
  'tom',
  'amir',
  'sara',
  'leon',
  'kim',
  'rosa',
  'igor',
  'maya',
];
const LAST_NAMES = [
  'garcia',
  'smith',
  'mueller',
  'rossi',
  'martin',
  'jones',
  'kowalski',
  'silva',
  'nguyen',
  'brown',
  'dubois',
  'jensen',
  'novak',
  'santos',
  'schmidt',
  'lopez',
  'wilson',
  'fischer',
  'moreau',
  'taylor',
  'khan',
  'tanaka',
  'weber',
  'ricci',
  'costa',
  'berg',
  'horvat',
  'meyer',
  'li',
  'wang',
  'kim',
  'singh',
  'ivanov',
  'larsen',
  'bianchi',
  'lee',
  'walker',
  'young',
  'hall',
  'allen',
  'wright',
  'scott',
  'green',
  'baker',
  'adams',
  'nelson',
  'hill',
  'ramos',
  'campbell',
  'mitchell',
];
// Mailbox providers by share of a typical list; the rest are company domains, a long tail.
const PROVIDERS: readonly [string, number][] = [
  ['gmail.com', 0.3],
  ['yahoo.com', 0.08],
  ['outlook.com', 0.07],
  ['hotmail.com', 0.06],
  ['icloud.com', 0.05],
  ['gmx.de', 0.03],
  ['web.de', 0.02],
  ['orange.fr', 0.02],
  ['aol.com', 0.02],
];
const COMPANY_DOMAINS = 20_000;

/** A company domain of the long tail, the kind a domain search names: about 1 in 57,000 entries. */
export const SEARCH_DOMAIN = 'mail.company4242.com';
/** An address prefix of the kind a prefix search names: one first and last name, 1 in 2,500 entries. */
export const SEARCH_PREFIX = 'maria.garcia';

// A 32-bit integer hash (lowbias32): well spread, so that neighbouring indexes share nothing.
export function hash32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

const unit = (value: number): number => value / 4_294_967_296;

function domainOf(h: number): string {
  let roll = unit(hash32(h ^ 0x5bd1e995));
  for (const [domain, share] of PROVIDERS) {
    if (roll < share) return domain;
    roll -= share;
  }
  return `mail.company${h % COMPANY_DOMAINS}.com`;
}

/** The address of entry `index`, normalised; names have no digits, so the index makes it unique. */
export function emailOf(index: number): string {
  const h = hash32(index);
  return `${FIRST_NAMES[h % 50]}.${LAST_NAMES[Math.floor(h / 50) % 50]}${index}@${domainOf(h)}`;
}

/** An address that is on no list: the same shape, another domain. */
export function absentEmail(n: number): string {
  const h = hash32(n + 0x9e3779b9);
  return `${FIRST_NAMES[h % 50]}.${LAST_NAMES[Math.floor(h / 50) % 50]}${n}@absent.example`;
}

export type Origin = 'bounce' | 'complaint' | 'manual';

/** Bounces most, then complaints, a few entered by hand. */
export function originOf(index: number): Origin {
  const roll = hash32(index * 7 + 3) % 100;
  return roll < 70 ? 'bounce' : roll < 92 ? 'complaint' : 'manual';
}

/** Creation time in ms, spread evenly over the two years before `end`. */
export function createdAtOf(index: number, end: number): number {
  return end - 1 - Math.floor(unit(hash32(index * 13 + 5)) * SPAN_MS);
}

const hex = (value: number, digits: number): string => value.toString(16).padStart(digits, '0');

/**
 * A UUIDv7 of time `ms`, as the service's ids are (time-ordered: the list's newest-first order is
 * creation order); the index in its last 48 bits makes it unique.
 */
export function uuidV7At(ms: number, index: number, version = 7): string {
  const t = hex(ms, 12);
  const h = hash32(index * 31 + 17);
  return `${t.slice(0, 8)}-${t.slice(8)}-${version}${hex(h & 0xfff, 3)}-${hex(0x8000 | ((h >>> 12) & 0x3fff), 4)}-${hex(index, 12)}`;
}

/** The smallest id of time `ms`: a keyset cursor that lands at that point in the list. */
export function cursorAt(ms: number): string {
  const t = hex(ms, 12);
  return `${t.slice(0, 8)}-${t.slice(8)}-7000-8000-000000000000`;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A line of `COPY suppressions (SUPPRESSION_COLUMNS) FROM STDIN` (text format). */
export const SUPPRESSION_COLUMNS = 'id, account_id, email, origin, source_id, scope, created_at';
export function suppressionLine(index: number, accountId: string, end: number): string {
  const at = createdAtOf(index, end);
  const origin = originOf(index);
  const source = origin === 'manual' ? '\\N' : uuidV7At(at, index, 4);
  // Most entries are the whole account's; a few are a named stream's.
  const scope = hash32(index * 5 + 11) % 50 === 0 ? 'newsletter' : '';
  return `${uuidV7At(at, index)}\t${accountId}\t${emailOf(index)}\t${origin}\t${source}\t${scope}\t${iso(at)}\n`;
}

export const eventIdOf = (index: number): string => `evt-${index.toString(36)}-${hex(hash32(index * 3 + 1), 8)}`;

/**
 * A line of `COPY suppression_events (EVENT_COLUMNS) FROM STDIN`: the record of the event that made
 * the entry (the bounce, as the classifier filed it, or the complaint), or of its addition by hand.
 */
export const EVENT_COLUMNS =
  'account_id, event_id, type, email, scope, source_id, bounce_type, bounce_sub_type, bounce_status, bounce_reply_code, ' +
  'bounce_diagnostic, bounce_provider, bounce_remote_mta, bounce_category, bounce_reason, bounce_rule, classifier_version, ' +
  'complaint_feedback_type, suppression_id, outcome, occurred_at, received_at, actor_type, actor_id';
export function eventLine(index: number, accountId: string, end: number): string {
  const at = createdAtOf(index, end);
  const origin = originOf(index);
  const email = emailOf(index);
  const scope = hash32(index * 5 + 11) % 50 === 0 ? 'newsletter' : '';
  const id = uuidV7At(at, index);
  const source = origin === 'manual' ? '\\N' : uuidV7At(at, index, 4);
  const common = `${accountId}\t${eventIdOf(index)}`;
  const times = `${iso(at - 2000)}\t${iso(at)}`;
  if (origin === 'bounce') {
    const domain = email.slice(email.indexOf('@') + 1);
    return (
      `${common}\tbounce\t${email}\t${scope}\t${source}\tpermanent\tgeneral\t5.1.1\t550\t` +
      `smtp; 550 5.1.1 <${email}>: Recipient address rejected: User unknown in virtual mailbox table\t` +
      `ses\tmx1.${domain}\tinvalid_address\tuser_unknown\ttext:user unknown\t${CLASSIFIER_VERSION}\t` +
      `\\N\t${id}\tsuppressed\t${times}\tqueue\t\\N\n`
    );
  }
  if (origin === 'complaint') {
    return (
      `${common}\tcomplaint\t${email}\t${scope}\t${source}\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t` +
      `abuse\t${id}\tsuppressed\t${times}\tqueue\t\\N\n`
    );
  }
  return (
    `${common}\taddition\t${email}\t${scope}\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t` +
    `\\N\t${id}\tsuppressed\t${times}\tapi_key\tkey-${hash32(index) % 8}\n`
  );
}

/** A line of `COPY event_receipts (RECEIPT_COLUMNS) FROM STDIN`; entries entered by hand have none. */
export const RECEIPT_COLUMNS = 'account_id, event_id, received_at';
export function receiptLine(index: number, accountId: string, end: number): string {
  if (originOf(index) === 'manual') return '';
  return `${accountId}\t${eventIdOf(index)}\t${iso(createdAtOf(index, end))}\n`;
}
