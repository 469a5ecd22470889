import type { Lexicon } from './lexicon.js';

/** Dutch (Ziggo, KPN, XS4ALL, Exchange in Dutch). */
export const DUTCH: Lexicon = {
  unknownUser: {
    families: [
      {
        subjects: [
          'gebruiker',
          'gebruikersnaam',
          'ontvanger',
          'adres',
          'e mailadres',
          'emailadres',
          'mailadres',
          'e mail adres',
          'mailbox',
          'postbus',
          'account',
        ],
        predicates: [
          'onbekend',
          'is onbekend',
          'bestaat niet',
          'bestaat niet meer',
          'niet gevonden',
          'is niet gevonden',
          'ongeldig',
          'is ongeldig',
          'niet geldig',
          'is niet geldig',
          'niet bekend',
          'is niet bekend',
        ],
        qualifiers: ['onbekende', 'ongeldige', 'ongeldig', 'niet bestaande', 'niet bestaand'],
        gap: 3,
        notWith: ['ip', 'afzender', 'uw', 'je', 'jouw'],
      },
    ],
  },
  unknownDomain: {
    families: [
      {
        subjects: ['domein', 'domeinnaam', 'host'],
        predicates: ['onbekend', 'bestaat niet', 'niet gevonden', 'ongeldig'],
        qualifiers: ['onbekend', 'onbekende', 'ongeldige', 'niet bestaand'],
        gap: 1,
        notWith: ['afzender', 'uw'],
      },
    ],
  },
  fullMailbox: {
    families: [
      {
        subjects: ['mailbox', 'postbus', 'inbox', 'opslagruimte', 'quota', 'quotum'],
        predicates: ['vol', 'is vol', 'zit vol', 'overschreden', 'bereikt'],
        qualifiers: ['volle'],
        gap: 3,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['account', 'mailbox', 'postbus', 'gebruiker'],
        predicates: [
          'gedeactiveerd',
          'uitgeschakeld',
          'opgeheven',
          'inactief',
          'niet actief',
          'geblokkeerd',
          'opgeschort',
        ],
        gap: 3,
      },
    ],
  },
  blockList: { phrases: ['zwarte lijst', 'blokkeerlijst', 'ip ... geblokkeerd'] },
  spam: { phrases: ['ongewenste e mail', 'ongewenste mail'] },
  tryLater: { phrases: ['probeer het later', 'probeer later', 'later opnieuw', 'probeer het later opnieuw'] },
  refused: { phrases: ['geweigerd', 'afgewezen'] },
  outOfOffice: {
    phrases: ['automatisch antwoord', 'niet op kantoor', 'afwezig', 'met vakantie', 'op vakantie'],
  },
  senderAddress: {
    phrases: ['afzenderadres', 'adres van de afzender', 'afzender ... ongeldig', 'afzender ... onbekend'],
  },
  noConnection: { phrases: ['kan geen verbinding', 'verbinding ... mislukt', 'verbinding geweigerd'] },
};
