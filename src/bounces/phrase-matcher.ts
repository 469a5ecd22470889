import { isCjk, words } from './phrase-words.js';

export { words } from './phrase-words.js';

/**
 * Finds which of a table of phrases a text holds, in time linear in the text: the text is read
 * once into words (phrase-words.ts), and at each word only the phrases that can start there are
 * tried, each over a bounded number of words. No regular expression runs over the text, so no
 * input can make it backtrack.
 *
 * A phrase is words separated by spaces, read as the text is (a Chinese or Japanese phrase is one
 * word per character). `word*` matches any word that starts with `word`; `...` skips up to four
 * words. A phrase right after `not`, `never` or `nor` does not count.
 *
 * A family (PhraseFamily) is a meaning written once for all its wordings: any of its subjects
 * ("user", "address") with any of its predicates up to `gap` words after it ("unknown", "does not
 * exist"), or any of its qualifiers right before it or one word from it ("unknown", "no such"). It
 * is matched as one phrase per subject and per qualifier, its rest looked up by word.
 */

const MAX_GAP = 4;
const PREFIX_KEY = 4;
const FAMILY_GAP = 3;
// A qualifier is an adjective or its like: right before its subject, or one word from it
// ("unknown local user"), never farther, where "unknown error ... for user" would read as one.
const QUALIFIER_GAP = 1;

/** A meaning: a subject with a predicate after it, or a qualifier before it. */
export interface PhraseFamily {
  subjects: readonly string[];
  /** Said of the subject after it: `user` … `unknown`, `address` … `does not exist`. */
  predicates?: readonly string[];
  /** Said of the subject before it: `unknown` … `user`, `no such` … `mailbox`. */
  qualifiers?: readonly string[];
  /** Words between a subject and a predicate, at most (a CJK character is a word); 3 unless given. */
  gap?: number;
  /**
   * Words that make the subject another's (`sender`, `your`, `ip`): the family does not hold when
   * one stands right before the subject or between it and its predicate or qualifier.
   */
  notWith?: readonly string[];
}

/** One group of the table: its phrases and families; the lower its index, the stronger. */
export interface PhraseGroup {
  phrases: readonly string[];
  families?: readonly PhraseFamily[] | undefined;
}

interface WordPart {
  kind: 0;
  word: string;
  prefix: boolean;
}
/** Up to `gap` words of any kind but those of `except`. */
interface Gap {
  kind: 1;
  gap: number;
  except: ReadonlySet<string>;
}
interface Choice {
  text: string;
  parts: WordPart[];
}
/** One of several word sequences, indexed by first word (prefixed first words are few and listed). */
interface OneOf {
  exact: Map<string, Choice[]>;
  prefixed: Choice[];
  /** Words that may not stand right before the choice. */
  notAfter: ReadonlySet<string>;
}
type Part = WordPart | Gap;

interface Phrase {
  /** A phrase's words and gaps; a family's first words (its subject or qualifier). */
  parts: Part[];
  /** A family's rest: up to so many words, then one of its choices. */
  tail?: { gap: Gap; oneOf: OneOf };
  /** Index of the phrase's group: the lower, the stronger. */
  group: number;
  /** The phrase as written; for a family, its first words, to which the choice matched is added. */
  text: string;
  /** Words that may not stand right before the phrase. */
  notAfter: ReadonlySet<string>;
}

export interface PhraseMatch {
  group: number;
  phrase: string;
}

// "not listed", "not spam": a phrase right after one of these says the opposite, and does not count.
const NEGATIONS: ReadonlySet<string> = new Set(['not', 'never', 'nor']);
const NOTHING: ReadonlySet<string> = new Set();

/** A phrase's words, read as a text's words are (a CJK run split into characters, `l'adresse` two words). */
function wordParts(text: string): WordPart[] {
  return text.split(' ').flatMap((token) => {
    const prefix = token.endsWith('*');
    const read = words(prefix ? token.slice(0, -1) : token);
    if (read.length === 0 || (prefix && read.length > 1) || read.some((word) => word.startsWith('.'))) {
      throw new Error(`A phrase is words, letters and digits: "${text}"`);
    }
    return read.map((word): WordPart => ({ kind: 0, word, prefix }));
  });
}

function parse(text: string): Part[] {
  const parts: Part[] = [];
  for (const token of text.split(' ')) {
    parts.push(...(token === '...' ? [{ kind: 1, gap: MAX_GAP, except: NOTHING } as const] : wordParts(token)));
  }
  if (parts[0]?.kind !== 0 || parts.at(-1)?.kind !== 0) {
    throw new Error(`A phrase starts and ends with a word: "${text}"`);
  }
  return parts;
}

function oneOf(texts: readonly string[], notAfter: ReadonlySet<string>): OneOf {
  const choices: OneOf = { exact: new Map(), prefixed: [], notAfter };
  for (const text of texts) {
    const choice = { text, parts: wordParts(text) };
    const first = choice.parts[0] as WordPart;
    if (first.prefix) choices.prefixed.push(choice);
    else choices.exact.set(first.word, [...(choices.exact.get(first.word) ?? []), choice]);
  }
  return choices;
}

/**
 * A group's families as phrases: one per subject with every predicate said of it, one per qualifier
 * with every subject it qualifies. Families of one gap are read together, whatever their language,
 * so a subject they share ("host", "account") is tried once, and the words that make a subject
 * another's are those of them all.
 */
function familyPhrases(families: readonly PhraseFamily[], group: number): Phrase[] {
  interface Merged {
    guard: Set<string>;
    /** Subject → what is said of it. */
    said: Map<string, Set<string>>;
    /** Qualifier → the subjects it qualifies. */
    qualified: Map<string, Set<string>>;
  }
  const addAll = (to: Map<string, Set<string>>, key: string, values: readonly string[]) => {
    const set = to.get(key) ?? new Set<string>();
    for (const value of values) set.add(value);
    to.set(key, set);
  };
  const byGap = new Map<number, Merged>();
  for (const family of families) {
    const gap = family.gap ?? FAMILY_GAP;
    const merged: Merged = byGap.get(gap) ?? { guard: new Set(), said: new Map(), qualified: new Map() };
    byGap.set(gap, merged);
    for (const word of (family.notWith ?? []).flatMap((text) => words(text))) merged.guard.add(word);
    if (family.predicates?.length)
      for (const subject of family.subjects) addAll(merged.said, subject, family.predicates);
    for (const qualifier of family.qualifiers ?? []) addAll(merged.qualified, qualifier, family.subjects);
  }
  const phrases: Phrase[] = [];
  for (const [size, { guard, said, qualified }] of byGap) {
    const gap: Gap = { kind: 1, gap: size, except: guard };
    const startGuard = new Set([...NEGATIONS, ...guard]);
    for (const [subject, predicates] of said) {
      phrases.push({
        parts: wordParts(subject),
        tail: { gap, oneOf: oneOf([...predicates], NOTHING) },
        group,
        text: subject,
        notAfter: startGuard,
      });
    }
    const qualifierGap: Gap = { kind: 1, gap: Math.min(size, QUALIFIER_GAP), except: guard };
    for (const [qualifier, subjects] of qualified) {
      phrases.push({
        parts: wordParts(qualifier),
        tail: { gap: qualifierGap, oneOf: oneOf([...subjects], guard) },
        group,
        text: qualifier,
        notAfter: NEGATIONS,
      });
    }
  }
  return phrases;
}

function wordMatches(part: WordPart, word: string | undefined): boolean {
  if (word === undefined) return false;
  return part.prefix ? word.startsWith(part.word) : word === part.word;
}

/** Whether the words from `at` are the choice's. */
function isChoiceAt(choice: Choice, text: readonly string[], at: number): boolean {
  for (let offset = 0; offset < choice.parts.length; offset += 1) {
    if (!wordMatches(choice.parts[offset] as WordPart, text[at + offset])) return false;
  }
  return true;
}

/** The first of the choices whose words are those from `at`. */
function choiceAt(choices: readonly Choice[] | undefined, text: readonly string[], at: number): Choice | undefined {
  for (const choice of choices ?? []) if (isChoiceAt(choice, text, at)) return choice;
  return undefined;
}

/** Whether a phrase's parts from `partIndex` on match the text from `at`. */
function matchesAt(parts: readonly Part[], partIndex: number, text: readonly string[], at: number): boolean {
  if (partIndex === parts.length) return true;
  const part = parts[partIndex] as Part;
  if (part.kind === 0) return wordMatches(part, text[at]) && matchesAt(parts, partIndex + 1, text, at + 1);
  for (let skip = 0; skip <= part.gap; skip += 1) {
    if (matchesAt(parts, partIndex + 1, text, at + skip)) return true;
  }
  return false;
}

/**
 * Whether a family's rest follows from `at`: null if not, else how it reads, the choice after
 * ` ... ` if words stood between, after a space if none.
 */
function tailAt(tail: NonNullable<Phrase['tail']>, text: readonly string[], at: number): string | null {
  const { gap, oneOf: choices } = tail;
  for (let skip = 0; skip <= gap.gap; skip += 1) {
    const here = at + skip;
    if (skip > 0 && gap.except.size > 0 && gap.except.has(text[here - 1] as string)) return null;
    const word = text[here];
    if (word === undefined) return null;
    if (choices.notAfter.size > 0 && choices.notAfter.has(text[here - 1] ?? '')) continue;
    const found = choiceAt(choices.exact.get(word), text, here) ?? choiceAt(choices.prefixed, text, here);
    if (found) return `${skip > 0 ? ' ... ' : ' '}${found.text}`;
  }
  return null;
}

/** A family's words as read: `user unknown`, `user ... unknown`; CJK characters side by side without a space. */
function joined(head: string, rest: string): string {
  const adjacent = rest.startsWith(' ') && !rest.startsWith(' ...');
  return adjacent && isCjk(head.charCodeAt(head.length - 1)) && isCjk(rest.charCodeAt(1))
    ? head + rest.slice(1)
    : head + rest;
}

/** A compiled table: groups of phrases and families, tried strongest group first. */
export class PhraseMatcher {
  private readonly exact = new Map<string, Phrase[]>();
  /** Phrases whose first word is a prefix, by the prefix's first PREFIX_KEY characters. */
  private readonly prefixed = new Map<string, Phrase[]>();

  constructor(groups: readonly PhraseGroup[]) {
    groups.forEach(({ phrases, families = [] }, group) => {
      const compiled = [
        ...phrases.map((text) => ({ parts: parse(text), group, text, notAfter: NEGATIONS })),
        ...familyPhrases(families, group),
      ];
      for (const phrase of compiled) {
        const first = phrase.parts[0] as WordPart;
        if (first.prefix && first.word.length < PREFIX_KEY) {
          throw new Error(`A phrase's first word is a prefix of at least ${PREFIX_KEY} letters: "${phrase.text}"`);
        }
        const [index, key] = first.prefix ? [this.prefixed, first.word.slice(0, PREFIX_KEY)] : [this.exact, first.word];
        index.set(key, [...(index.get(key) ?? []), phrase]);
      }
    });
  }

  /**
   * The strongest group any phrase of which the words hold, and that phrase; null when none. Within
   * the group, the first match, but one whose words stand side by side (a phrase, or a family with
   * nothing between) before a family's with words between: in "Recipient address rejected: User
   * unknown", `user unknown`, not `recipient ... unknown`.
   */
  match(text: readonly string[]): PhraseMatch | null {
    let best: PhraseMatch | null = null;
    let bestApart = false;
    const consider = (candidates: readonly Phrase[] | undefined, at: number, word: string, prefixed: boolean) => {
      if (candidates === undefined) return;
      // Candidates are in group order: once one is no stronger than the match in hand, none after is.
      for (const phrase of candidates) {
        if (best !== null && (phrase.group > best.group || (phrase.group === best.group && !bestApart))) return;
        if (prefixed && !wordMatches(phrase.parts[0] as WordPart, word)) continue;
        // Most candidates fail on their second word: that is read here, before the call.
        const second = phrase.parts[1];
        if (second?.kind === 0 && !wordMatches(second, text[at + 1])) continue;
        if (!matchesAt(phrase.parts, 1, text, at + 1)) continue;
        const choice = phrase.tail ? tailAt(phrase.tail, text, at + phrase.parts.length) : '';
        if (choice === null || phrase.notAfter.has(text[at - 1] ?? '')) continue;
        const apart = choice.startsWith(' ...');
        if (best !== null && phrase.group === best.group && apart) continue;
        best = { group: phrase.group, phrase: joined(phrase.text, choice) };
        bestApart = apart;
      }
    };
    for (let at = 0; at < text.length; at += 1) {
      const word = text[at] as string;
      consider(this.exact.get(word), at, word, false);
      if (word.length >= PREFIX_KEY) consider(this.prefixed.get(word.slice(0, PREFIX_KEY)), at, word, true);
    }
    return best;
  }
}
