import type { Lexicon } from './lexicon.js';
/** Italian (Libero, Virgilio, Aruba, TIM, Exchange in Italian). Accents are read without them. */
export const ITALIAN: Lexicon = {
  unknownUser: {
    phrases: ['nessun utente', 'nessuna casella'],
    families: [
      {
        subjects: [
          'utente',
          'nome utente',
          'destinatario',
          'indirizzo',
          'indirizzo email',
          'indirizzo e mail',
          'casella',
          'casella di posta',
          'casella email',
          'account',
        ],
        predicates: [
          'sconosciuto',
          'sconosciuta',
          'inesistente',
          'non esiste',
          'non esiste più',
          'non esistente',
          'non trovato',
          'non trovata',
          'non valido',
          'non valida',
          'non è valido',
          'non è valida',
          'non più valido',
          'non più valida',
          'non riconosciuto',
          'non riconosciuta',
        ],
        gap: 3,
        notWith: ['ip', 'mittente', 'tuo', 'vostro'],
      },
    ],
  },
  unknownDomain: {
    families: [
      {
        subjects: ['dominio', 'nome di dominio', 'host'],
        predicates: ['sconosciuto', 'inesistente', 'non esiste', 'non trovato', 'non valido'],
        gap: 1,
        notWith: ['mittente', 'tuo'],
      },
    ],
  },
  fullMailbox: {
    phrases: ['quota superata', 'quota esaurita', 'spazio esaurito'],
    families: [
      {
        subjects: ['casella', 'casella di posta', 'mailbox', 'quota', 'spazio'],
        predicates: ['piena', 'pieno', 'è piena', 'esaurita', 'esaurito', 'superata', 'superato', 'ha superato'],
        gap: 3,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['account', 'casella', 'casella di posta', 'utente'],
        predicates: [
          'disattivato',
          'disattivata',
          'disabilitato',
          'disabilitata',
          'sospeso',
          'sospesa',
          'bloccato',
          'bloccata',
          'inattivo',
          'inattiva',
          'chiuso',
          'chiusa',
        ],
        gap: 3,
      },
    ],
  },
  blockList: { phrases: ['lista nera', 'liste nere', 'ip ... bloccat*'] },
  spam: { phrases: ['posta indesiderata', 'indesiderat*'] },
  tryLater: { phrases: ['riprovare più tardi', 'riprova più tardi', 'riprovate più tardi', 'riprovare in seguito'] },
  refused: { phrases: ['rifiutat*', 'respint*'] },
  outOfOffice: {
    phrases: ['risposta automatica', 'fuori ufficio', 'fuori sede', 'in ferie', 'sono assente', 'sarò assente'],
  },
  senderAddress: {
    phrases: ['indirizzo del mittente', 'dominio del mittente', 'mittente ... non valido', 'mittente ... sconosciuto'],
  },
  noConnection: { phrases: ['impossibile connettersi', 'connessione rifiutata', 'tempo scaduto'] },
};
