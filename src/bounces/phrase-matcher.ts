/**
 * Finds which of a table of phrases a text holds, in time linear in the text: the text is read
 * once into words, and at each word only the phrases that can start there are tried, each over a
 * bounded number of words. No regular expression runs over the text, so no input can make it
 * backtrack.
 *
 * A phrase is words separated by spaces. `word*` matches any word that starts with `word`; `...`
 * skips up to four words. A text's addresses (anything with an `@`) are one word, `@`, so a
 * mailbox's name never reads as a word of the message. Apostrophes are dropped inside words
 * (`doesn't` is `doesnt`); every other character that is not a letter or digit separates words. A
 * phrase right after `not` or `never` does not count.
 */

const MAX_GAP = 4;
const PREFIX_KEY = 4;

type Part = { word: string; prefix: boolean } | { gap: number };

interface Phrase {
  parts: Part[];
  /** Index of the phrase's group: the lower, the stronger. */
  group: number;
  text: string;
}

export interface PhraseMatch {
  group: number;
  phrase: string;
}

const ADDRESS = '@';

// "not listed", "not spam": a phrase right after one of these says the opposite, and does not count.
const NEGATIONS = new Set(['not', 'never', 'nor']);

function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code >= 128;
}

// Addresses are cut out at these, so `<jane@example.com>:` is one address.
function isChunkBreak(code: number): boolean {
  return (
    code <= 32 ||
    code === 60 ||
    code === 62 ||
    code === 40 ||
    code === 41 ||
    code === 91 ||
    code === 93 ||
    code === 34 ||
    code === 59 ||
    code === 44
  );
}

/**
 * The words of a text, lower-cased: each address is the one word `@`, and each host name or URL
 * (letters after a dot inside a run of non-spaces) one word that starts with a dot and so matches
 * no phrase: `relay.example.com` never reads as the word "relay".
 */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  // The chunk (a run between breaks) whose words are being read: where it starts in the text and
  // in `out`, so an address or host name can replace the words read from it.
  let chunkStart = 0;
  let chunkOut = 0;
  let hasAt = false;
  let hasHost = false;
  let wordStart = -1;
  // A word's letters before an apostrophe, which is dropped: `doesn't` is one word.
  let held = '';
  const endWord = (end: number) => {
    if (wordStart >= 0) out.push(held + lower.slice(wordStart, end));
    else if (held !== '') out.push(held);
    wordStart = -1;
    held = '';
  };
  const endChunk = (end: number) => {
    endWord(end);
    if (hasAt || hasHost) {
      out.length = chunkOut;
      out.push(hasAt ? ADDRESS : `.${lower.slice(chunkStart, end)}`);
    }
    hasAt = false;
    hasHost = false;
    chunkStart = end + 1;
    chunkOut = out.length;
  };
  for (let i = 0; i < lower.length; i += 1) {
    const code = lower.charCodeAt(i);
    if (isWordChar(code)) {
      if (wordStart < 0) {
        // A dot between a word and a letter: a host name, not the end of a sentence.
        if (code >= 97 && code <= 122 && i > chunkStart && lower.charCodeAt(i - 1) === 46 && out.length > chunkOut) {
          hasHost = true;
        }
        wordStart = i;
      }
    } else if (code === 39 || code === 8217) {
      if (wordStart >= 0) held += lower.slice(wordStart, i);
      wordStart = -1;
    } else if (isChunkBreak(code)) endChunk(i);
    else {
      if (code === 64) hasAt = true;
      endWord(i);
    }
  }
  endChunk(lower.length);
  return out;
}

function parse(text: string, group: number): Phrase {
  const parts: Part[] = text.split(' ').map((token) => {
    if (token === '...') return { gap: MAX_GAP };
    const prefix = token.endsWith('*');
    return { word: prefix ? token.slice(0, -1) : token, prefix };
  });
  const first = parts[0];
  const last = parts.at(-1);
  if (!first || !('word' in first) || !last || !('word' in last) || parts.some((p) => 'word' in p && p.word === '')) {
    throw new Error(`A phrase starts and ends with a word: "${text}"`);
  }
  return { parts, group, text };
}

function wordMatches(part: { word: string; prefix: boolean }, word: string | undefined): boolean {
  if (word === undefined) return false;
  return part.prefix ? word.startsWith(part.word) : word === part.word;
}

function matchesAt(parts: readonly Part[], partIndex: number, text: readonly string[], at: number): boolean {
  if (partIndex === parts.length) return true;
  const part = parts[partIndex] as Part;
  if ('gap' in part) {
    for (let skip = 0; skip <= part.gap; skip += 1) {
      if (matchesAt(parts, partIndex + 1, text, at + skip)) return true;
    }
    return false;
  }
  return wordMatches(part, text[at]) && matchesAt(parts, partIndex + 1, text, at + 1);
}

/** A compiled table: groups of phrases, tried strongest group first. */
export class PhraseMatcher {
  private readonly exact = new Map<string, Phrase[]>();
  /** Phrases whose first word is a prefix, by the prefix's first PREFIX_KEY characters. */
  private readonly prefixed = new Map<string, Phrase[]>();

  constructor(groups: readonly (readonly string[])[]) {
    groups.forEach((phrases, group) => {
      for (const text of phrases) {
        const phrase = parse(text, group);
        const first = phrase.parts[0] as { word: string; prefix: boolean };
        if (first.prefix && first.word.length < PREFIX_KEY) {
          throw new Error(`A phrase's first word is a prefix of at least ${PREFIX_KEY} letters: "${text}"`);
        }
        const [index, key] = first.prefix ? [this.prefixed, first.word.slice(0, PREFIX_KEY)] : [this.exact, first.word];
        index.set(key, [...(index.get(key) ?? []), phrase]);
      }
    });
  }

  /** The strongest group any phrase of which the words hold, and that phrase; null when none. */
  match(text: readonly string[]): PhraseMatch | null {
    let best: Phrase | null = null;
    const consider = (candidates: readonly Phrase[] | undefined, at: number) => {
      if (!candidates) return;
      for (const phrase of candidates) {
        if (best !== null && phrase.group >= best.group) continue;
        if (!wordMatches(phrase.parts[0] as { word: string; prefix: boolean }, text[at])) continue;
        if (matchesAt(phrase.parts, 1, text, at + 1) && !NEGATIONS.has(text[at - 1] ?? '')) best = phrase;
      }
    };
    for (let at = 0; at < text.length; at += 1) {
      const word = text[at] as string;
      consider(this.exact.get(word), at);
      if (word.length >= PREFIX_KEY) consider(this.prefixed.get(word.slice(0, PREFIX_KEY)), at);
    }
    const found = best as Phrase | null;
    return found && { group: found.group, phrase: found.text };
  }
}
