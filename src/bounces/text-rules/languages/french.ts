import type { Lexicon } from './lexicon.js';
/**
 * French (Orange, La Poste, Free, SFR, Exchange and Domino in French). Accents are read without
 * them; an elided article is one word with its noun (`l'adresse` is `ladresse`).
 */
export const FRENCH: Lexicon = {
  unknownUser: {
    phrases: [
      'aucun utilisateur',
      'aucune boite',
      'aucun destinataire',
      'non répertorié dans',
      "ne figure pas dans l'annuaire",
    ],
    families: [
      {
        subjects: [
          'utilisateur',
          'destinataire*',
          'adresse',
          'adresse e mail',
          'adresse email',
          'adresse électronique',
          'boîte aux lettres',
          'boîte',
          'boite',
          'compte',
          'correspondant',
        ],
        predicates: [
          'inconnu',
          'inconnue',
          'est inconnu',
          'est inconnue',
          "n'existe pas",
          "n'existe plus",
          'inexistant',
          'inexistante',
          'introuvable',
          'invalide',
          'non valide',
          "n'est pas valide",
          "n'est plus valide",
          'non trouvé',
          'non trouvée',
          "n'a pas été trouvé",
          "n'a pas été trouvée",
          'non reconnu',
          'non reconnue',
          'non répertorié',
          'non répertoriée',
        ],
        qualifiers: ['mauvaise', 'mauvais'],
        gap: 3,
        notWith: ['ip', 'expéditeur', 'émetteur', 'votre', 'vos'],
      },
    ],
  },
  unknownDomain: {
    families: [
      {
        subjects: ['domaine', 'nom de domaine', 'hôte', 'lhôte'],
        predicates: ['inconnu', "n'existe pas", 'inexistant', 'introuvable', 'invalide'],
        gap: 1,
        notWith: ['expéditeur', 'votre'],
      },
    ],
  },
  fullMailbox: {
    phrases: ['quota dépassé', 'quota atteint', 'espace de stockage ... insuffisant'],
    families: [
      {
        subjects: ['boîte', 'boîte aux lettres', 'boite', 'messagerie', 'quota', 'espace disque', 'capacité'],
        predicates: [
          'pleine',
          'plein',
          'est pleine',
          'saturée',
          'saturé',
          'dépassé',
          'dépassée',
          'atteint',
          'atteinte',
        ],
        gap: 3,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['compte', 'le compte', 'boîte', 'boite', 'boîte aux lettres'],
        predicates: [
          'désactivé',
          'désactivée',
          'suspendu',
          'suspendue',
          'bloqué',
          'bloquée',
          'est bloqué',
          'fermé',
          'fermée',
          'archivé',
          'archivée',
          'inactif',
          'inactive',
          'clôturé',
          'clôturée',
        ],
        gap: 3,
      },
    ],
  },
  blockList: {
    phrases: ['liste noire', 'listes noires', 'ip ... bloqué*', 'bloqués par nos services', 'bloquée pour incident'],
  },
  spam: { phrases: ['pourriel', 'pourriels', 'courrier indésirable', 'message indésirable', 'incident de spam'] },
  tryLater: {
    phrases: [
      'essayer plus tard',
      'réessayer plus tard',
      'ressayer plus tard',
      'essayez plus tard',
      'réessayez plus tard',
      'veuillez réessayer',
    ],
  },
  refused: { phrases: ['refusé', 'refusée', 'rejeté', 'rejetée'] },
  outOfOffice: {
    phrases: [
      'réponse automatique',
      'absent du bureau',
      'absente du bureau',
      'je suis absent',
      'je suis absente',
      'en congé',
      'en vacances',
      'de retour le',
    ],
  },
  senderAddress: {
    phrases: [
      "adresse de l'expéditeur",
      "domaine de l'expéditeur",
      'expéditeur ... invalide',
      'expéditeur ... inconnu',
      'émetteur ... invalide',
      'émetteur ... inconnu',
    ],
  },
  noConnection: {
    phrases: [
      'connexion impossible',
      'impossible de se connecter',
      "délai d'attente dépassé",
      'connexion refusée',
      'serveur injoignable',
    ],
  },
};
