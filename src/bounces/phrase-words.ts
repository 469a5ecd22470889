/**
 * How a diagnostic is read into words, the one reading that the phrases are matched against (and
 * that the phrases themselves are read with):
 *
 * - lower case, and Latin letters without their accents (`refusé` is `refuse`, `ungültig` is
 *   `ungultig`), since servers write both; full-width Latin letters and digits as ASCII;
 * - apostrophes dropped inside words (`doesn't` is `doesnt`), but for French and Italian elisions,
 *   which are words of their own (`l'adresse` is `l adresse`, `n'existe` is `n existe`);
 * - every other character that is not a letter or digit separates words;
 * - each address (anything with an `@`) is the one word `@`, so a mailbox's name never reads as a
 *   word of the message;
 * - each host name or URL (letters after a dot inside a run of non-spaces) one word that starts
 *   with a dot and so matches no phrase: `relay.example.com` never reads as the word "relay";
 * - each Chinese character, hiragana and katakana is a word of its own, since those scripts put no
 *   spaces between words: a phrase in them matches anywhere inside a run, as a substring would,
 *   and CJK punctuation separates.
 */

const ADDRESS = '@';

// Elided articles, pronouns and prepositions of French and Italian: `l'`, `d'`, `n'`, `qu'`, `dell'`.
const ELISIONS: ReadonlySet<string> = new Set([
  'l',
  'd',
  'j',
  'n',
  's',
  'c',
  'm',
  't',
  'qu',
  'dell',
  'all',
  'nell',
  'sull',
  'dall',
  'quell',
  'un',
]);

function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 128 && (code < 0x3000 || !isCjkBreak(code)))
  );
}

/** Hiragana, katakana (the middle dot excepted), CJK ideographs, half-width katakana: one word each. */
export function isCjk(code: number): boolean {
  return (
    (code >= 0x3041 && code <= 0x30ff && code !== 0x30fb) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff66 && code <= 0xff9f)
  );
}

/** CJK punctuation, the katakana middle dot and full-width punctuation: they separate words and chunks. */
function isCjkBreak(code: number): boolean {
  return (
    (code >= 0x3000 && code <= 0x303f) ||
    code === 0x30fb ||
    (code >= 0xff01 && code <= 0xff0f) ||
    (code >= 0xff1a && code <= 0xff20) ||
    (code >= 0xff3b && code <= 0xff40) ||
    (code >= 0xff5b && code <= 0xff65)
  );
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
    code === 44 ||
    (code >= 0x3000 && isCjkBreak(code))
  );
}

const FOLDABLE = /[\u00c0-\u024f\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/g;
const FOLDED = new Map<string, string>();
for (let code = 0xc0; code <= 0x24f; code += 1) {
  const char = String.fromCharCode(code);
  const base = char.normalize('NFD').replace(/\p{M}/gu, '');
  if (base.length === 1 && base !== char) FOLDED.set(char, base);
}
for (let code = 0xff10; code <= 0xff5a; code += 1)
  FOLDED.set(String.fromCharCode(code), String.fromCharCode(code - 0xfee0));

/** A lower-case word's Latin letters without accents, its full-width Latin letters and digits as ASCII. */
function fold(word: string): string {
  return word.replace(FOLDABLE, (char) => FOLDED.get(char) ?? char);
}

/** The words of a text, as the comment at the top of this file reads them. */
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
  // Whether the word has a letter beyond ASCII, which may have an accent to drop.
  let wide = false;
  const endWord = (end: number) => {
    const word = wordStart >= 0 ? held + lower.slice(wordStart, end) : held;
    if (word !== '') out.push(wide ? fold(word) : word);
    wordStart = -1;
    held = '';
    wide = false;
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
    if (code >= 0x3041 && isCjk(code)) {
      endChunk(i);
      out.push(lower[i] as string);
      chunkOut = out.length;
    } else if (isWordChar(code)) {
      if (code >= 0xc0) wide = true;
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
      if (ELISIONS.has(held) && isWordChar(lower.charCodeAt(i + 1))) endWord(i);
    } else if (isChunkBreak(code)) endChunk(i);
    else {
      if (code === 64) hasAt = true;
      endWord(i);
    }
  }
  endChunk(lower.length);
  return out;
}
