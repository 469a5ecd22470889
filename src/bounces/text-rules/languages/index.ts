import type { PhraseFamily } from '../../phrase-matcher.js';
import { CHINESE } from './chinese.js';
import { DUTCH } from './dutch.js';
import { ENGLISH } from './english.js';
import { FRENCH } from './french.js';
import { GERMAN } from './german.js';
import { ITALIAN } from './italian.js';
import { JAPANESE } from './japanese.js';
import type { Lexicon, Meaning } from './lexicon.js';
import { POLISH } from './polish.js';
import { PORTUGUESE } from './portuguese.js';
import { RUSSIAN } from './russian.js';
import { SPANISH } from './spanish.js';

/**
 * The languages read: English, and those of the large mailbox providers, each written by meaning
 * from the providers' and MTAs' own messages as documented and from Sisimai's lexicon, never from
 * one sample's text.
 */
export const LANGUAGES: Readonly<Record<string, Lexicon>> = {
  en: ENGLISH,
  de: GERMAN,
  fr: FRENCH,
  es: SPANISH,
  pt: PORTUGUESE,
  it: ITALIAN,
  nl: DUTCH,
  pl: POLISH,
  ru: RUSSIAN,
  ja: JAPANESE,
  zh: CHINESE,
};

/** A meaning's phrases and families in every language of LANGUAGES. */
export function inEveryLanguage(meaning: Meaning): { phrases: string[]; families: PhraseFamily[] } {
  const lexicons = Object.values(LANGUAGES);
  return {
    phrases: lexicons.flatMap((lexicon) => lexicon[meaning]?.phrases ?? []),
    families: lexicons.flatMap((lexicon) => lexicon[meaning]?.families ?? []),
  };
}
