import type { Lexicon } from './lexicon.js';

/** German (GMX, WEB.DE, T-Online, Exchange and Notes in German). Umlauts are read as their vowel. */
export const GERMAN: Lexicon = {
  unknownUser: {
    phrases: ['kein solcher benutzer', 'kein postfach', 'kein benutzer', 'keine mailbox'],
    families: [
      {
        subjects: [
          'benutzer*',
          'nutzer*',
          'empfanger*',
          'empfaenger*',
          'adresse*',
          'e mail adresse*',
          'emailadresse*',
          'mailadresse*',
          'postfach*',
          'mailbox',
          'konto',
          'benutzerkonto',
          'teilnehmer',
        ],
        predicates: [
          'unbekannt',
          'ist unbekannt',
          'existiert nicht',
          'existiert nicht mehr',
          'gibt es nicht',
          'nicht gefunden',
          'wurde nicht gefunden',
          'konnte nicht gefunden werden',
          'ungültig',
          'ungueltig',
          'ist ungültig',
          'ist ungueltig',
          'nicht vorhanden',
          'nicht mehr vorhanden',
          'nicht bekannt',
          'nicht mehr gültig',
          'nicht mehr gueltig',
        ],
        qualifiers: [
          'unbekannte*',
          'ungültige*',
          'ungueltige*',
          'nicht existierende*',
          'nichtexistierende*',
          'nicht vorhandene*',
        ],
        gap: 3,
        notWith: ['ip', 'absender', 'absenders', 'ihre', 'ihr', 'ihrer'],
      },
    ],
  },
  unknownDomain: {
    families: [
      {
        subjects: ['domain', 'domäne', 'domane', 'domainname', 'zieldomain', 'host', 'hostname'],
        predicates: ['unbekannt', 'existiert nicht', 'nicht gefunden', 'gibt es nicht', 'ungültig', 'ungueltig'],
        qualifiers: ['unbekannte', 'ungültige', 'ungueltige', 'nicht existierende'],
        gap: 1,
        notWith: ['absender', 'ihre', 'ihr'],
      },
    ],
  },
  fullMailbox: {
    phrases: ['postfach voll', 'mailbox voll', 'speicherplatz ... erschöpft'],
    families: [
      {
        subjects: [
          'postfach*',
          'mailbox',
          'posteingang',
          'speicherkontingent',
          'kontingent',
          'quota',
          'postfachgröße',
          'postfachgroesse',
        ],
        predicates: ['voll', 'ist voll', 'überschritten', 'ueberschritten', 'erschöpft', 'erschoepft', 'ausgeschöpft'],
        qualifiers: ['volle', 'volles'],
        gap: 3,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['konto', 'benutzerkonto', 'postfach*', 'mailbox', 'account', 'benutzer', 'empfanger*'],
        predicates: [
          'deaktiviert',
          'gesperrt',
          'stillgelegt',
          'inaktiv',
          'gekündigt',
          'geschlossen',
          'nicht aktiv',
          'nicht mehr aktiv',
          'aufgelöst',
        ],
        qualifiers: ['deaktivierte*', 'gesperrte*', 'inaktive*'],
        gap: 3,
      },
    ],
  },
  blockList: {
    phrases: ['schwarze liste', 'schwarzen liste', 'sperrliste', 'blockliste', 'ip ... gesperrt', 'ip ... blockiert'],
  },
  spam: { phrases: ['unerwünschte werbung', 'unerwuenschte', 'als spam eingestuft'] },
  tryLater: {
    phrases: [
      'später erneut',
      'spaeter erneut',
      'später noch einmal',
      'später nochmal',
      'versuchen sie es später',
      'bitte später',
    ],
  },
  refused: { phrases: ['abgelehnt', 'zurückgewiesen', 'verweigert'] },
  outOfOffice: {
    phrases: [
      'abwesenheitsnotiz',
      'automatische antwort',
      'nicht im büro',
      'außer haus',
      'ausser haus',
      'im urlaub',
      'bin abwesend',
      'bin ... abwesend',
      'bin nicht erreichbar',
    ],
  },
  senderAddress: {
    phrases: [
      'absenderadresse',
      'adresse des absenders',
      'absenderdomain',
      'absender ... ungültig',
      'absender ... ungueltig',
      'absender ... unbekannt',
      'ungültiger absender',
      'ungueltiger absender',
    ],
  },
  noConnection: {
    phrases: [
      'keine verbindung',
      'verbindung ... fehlgeschlagen',
      'zeitüberschreitung',
      'zeitueberschreitung',
      'server ... nicht erreichbar',
    ],
  },
};
