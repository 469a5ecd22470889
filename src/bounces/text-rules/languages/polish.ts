import type { Lexicon } from './lexicon.js';

/**
 * Polish (WP, Onet, Interia, o2, Exchange in Polish). Accents are read without them but for `ł`,
 * which has no base letter: words with it are written both ways.
 */
export const POLISH: Lexicon = {
  unknownUser: {
    phrases: [
      'nie ma takiego użytkownika',
      'nie ma takiego adresu',
      'nie ma takiej skrzynki',
      'brak użytkownika',
      'brak skrzynki',
    ],
    families: [
      {
        subjects: [
          'użytkownik*',
          'odbiorca',
          'odbiorcy',
          'adres',
          'adres e mail',
          'adres email',
          'skrzynka',
          'skrzynki',
          'skrzynka pocztowa',
          'konto',
          'konta',
        ],
        predicates: [
          'nie istnieje',
          'nie istnieją',
          'nieznany',
          'nieznana',
          'nie znaleziono',
          'nie został znaleziony',
          'nie zostal znaleziony',
          'nieprawidłowy',
          'nieprawidlowy',
          'nieprawidłowa',
          'nieprawidlowa',
          'niepoprawny',
          'niepoprawna',
          'nie jest poprawny',
        ],
        qualifiers: [
          'nieznany',
          'nieznana',
          'nieistniejący',
          'nieistniejąca',
          'nieistniejące',
          'nieprawidłowy',
          'nieprawidlowy',
          'nieprawidłowa',
          'nieprawidlowa',
          'niepoprawny',
          'niepoprawna',
        ],
        gap: 3,
        notWith: ['ip', 'nadawca', 'nadawcy', 'twój', 'twoja', 'twoje'],
      },
    ],
  },
  unknownDomain: {
    families: [
      {
        subjects: ['domena', 'domeny', 'nazwa domeny', 'host'],
        predicates: ['nie istnieje', 'nieznana', 'nieznany', 'nie znaleziono'],
        qualifiers: ['nieznana', 'nieistniejąca'],
        gap: 1,
        notWith: ['nadawcy', 'twoja'],
      },
    ],
  },
  fullMailbox: {
    phrases: ['brak miejsca', 'przekroczony limit', 'przekroczono limit'],
    families: [
      {
        subjects: ['skrzynka', 'skrzynka pocztowa', 'skrzynki', 'limit', 'quota'],
        predicates: [
          'pełna',
          'pelna',
          'jest pełna',
          'jest pelna',
          'przepełniona',
          'przepelniona',
          'przekroczony',
          'przekroczona',
        ],
        qualifiers: ['pełna', 'pelna', 'przepełniona', 'przepelniona'],
        gap: 3,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['konto', 'skrzynka', 'skrzynki', 'użytkownik*'],
        predicates: [
          'zablokowane',
          'zablokowana',
          'zablokowany',
          'wyłączone',
          'wylaczone',
          'wyłączona',
          'wylaczona',
          'nieaktywne',
          'nieaktywna',
          'nieaktywny',
          'zawieszone',
          'zawieszona',
          'dezaktywowane',
        ],
        gap: 3,
      },
    ],
  },
  blockList: {
    phrases: ['czarna lista', 'czarnej liście', 'czarnej liscie', 'czarnych listach', 'ip ... zablokowan*'],
  },
  tryLater: {
    phrases: ['spróbuj później', 'spróbuj ponownie później', 'spróbować później', 'spróbować ponownie później'],
  },
  refused: { phrases: ['odrzucon*', 'odmowa'] },
  outOfOffice: {
    phrases: ['automatyczna odpowiedź', 'poza biurem', 'na urlopie', 'jestem nieobecn*', 'będę nieobecn*'],
  },
  senderAddress: {
    phrases: [
      'adres nadawcy',
      'domena nadawcy',
      'nadawca ... nieprawidłowy',
      'nadawca ... nieprawidlowy',
      'nadawca ... nieznany',
    ],
  },
  noConnection: {
    phrases: [
      'nie można połączyć',
      'nie mozna polaczyc',
      'przekroczono czas',
      'połączenie odrzucone',
      'polaczenie odrzucone',
    ],
  },
};
