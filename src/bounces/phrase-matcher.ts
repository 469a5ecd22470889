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
  let chunk: string[] = [];
  let chunkStart = 0;
  let hasAt = false;
  let hasHost = false;
  let word = '';
  const endWord = () => {
    if (word !== '') chunk.push(word);
    word = '';
  };
  const endChunk = (end: number) => {
    endWord();
    if (hasAt) out.push(ADDRESS);
    else if (hasHost) out.push(`.${lower.slice(chunkStart, end)}`);
    else for (const w of chunk) out.push(w);
    chunk = [];
    hasAt = false;
    hasHost = false;
    chunkStart = end + 1;
  };
  for (let i = 0; i < lower.length; i += 1) {
    const code = lower.charCodeAt(i);
    if (isWordChar(code)) {
      // A dot between a word and a letter: a host name, not the end of a sentence.
      if (code >= 97 && code <= 122 && word === '' && chunk.length > 0 && lower.charCodeAt(i - 1) === 46) {
        hasHost = true;
      }
      word += lower[i];
    } else if (code === 39 || code === 8217) continue;
    else if (isChunkBreak(code)) endChunk(i);
    else {
      if (code === 64) hasAt = true;
      endWord();
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
  private readonly prefixed = new Map<string, Phrase[]>();
  private readonly prefixLengths: number[];

  constructor(groups: readonly (readonly string[])[]) {
    const lengths = new Set<number>();
    groups.forEach((phrases, group) => {
      for (const text of phrases) {
        const phrase = parse(text, group);
        const first = phrase.parts[0] as { word: string; prefix: boolean };
        const index = first.prefix ? this.prefixed : this.exact;
        if (first.prefix) lengths.add(first.word.length);
        index.set(first.word, [...(index.get(first.word) ?? []), phrase]);
      }
    });
    this.prefixLengths = [...lengths];
  }

  /** The strongest group any phrase of which the words hold, and that phrase; null when none. */
  match(text: readonly string[]): PhraseMatch | null {
    let best: Phrase | null = null;
    const consider = (candidates: readonly Phrase[] | undefined, at: number) => {
      if (!candidates) return;
      for (const phrase of candidates) {
        if (best !== null && phrase.group >= best.group) continue;
        if (matchesAt(phrase.parts, 1, text, at + 1) && !NEGATIONS.has(text[at - 1] ?? '')) best = phrase;
      }
    };
    for (let at = 0; at < text.length; at += 1) {
      const word = text[at] as string;
      consider(this.exact.get(word), at);
      for (const length of this.prefixLengths) {
        if (word.length >= length) consider(this.prefixed.get(word.slice(0, length)), at);
      }
    }
    const found = best as Phrase | null;
    return found && { group: found.group, phrase: found.text };
  }
}
