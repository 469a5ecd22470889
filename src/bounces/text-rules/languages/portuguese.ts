import type { Lexicon } from './lexicon.js';

/** Portuguese, of Brazil and of Portugal (UOL, Terra, BOL, SAPO, Exchange in Portuguese). Accents are read without them. */
export const PORTUGUESE: Lexicon = {
  unknownUser: {
    phrases: ['nenhum usuário', 'nenhum utilizador'],
    families: [
      {
        subjects: [
          'usuário',
          'utilizador',
          'destinatário',
          'endereço',
          'endereço de email',
          'endereço de e mail',
          'endereço eletrônico',
          'conta',
          'caixa postal',
          'caixa de correio',
          'caixa de email',
        ],
        predicates: [
          'desconhecido',
          'desconhecida',
          'não existe',
          'não existe mais',
          'inexistente',
          'não encontrado',
          'não encontrada',
          'não foi encontrado',
          'não foi encontrada',
          'inválido',
          'inválida',
          'não é válido',
          'não é válida',
          'não válido',
          'não cadastrado',
          'não registrado',
        ],
        qualifiers: ['não existe'],
        gap: 3,
        notWith: ['ip', 'remetente', 'seu', 'sua'],
      },
    ],
  },
  unknownDomain: {
    families: [
      {
        subjects: ['domínio', 'nome de domínio', 'host'],
        predicates: ['desconhecido', 'não existe', 'inexistente', 'não encontrado', 'inválido'],
        gap: 1,
        notWith: ['remetente', 'seu'],
      },
    ],
  },
  fullMailbox: {
    phrases: ['cota excedida', 'quota excedida', 'sem espaço'],
    families: [
      {
        subjects: ['caixa postal', 'caixa de correio', 'caixa de entrada', 'caixa', 'cota', 'quota', 'espaço'],
        predicates: [
          'cheia',
          'cheio',
          'está cheia',
          'lotada',
          'lotado',
          'excedida',
          'excedido',
          'ultrapassou',
          'ultrapassada',
          'esgotado',
          'esgotada',
        ],
        gap: 3,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['conta', 'caixa postal', 'caixa de correio', 'usuário', 'utilizador'],
        predicates: [
          'desativada',
          'desativado',
          'desactivada',
          'desabilitada',
          'desabilitado',
          'suspensa',
          'suspenso',
          'inativa',
          'inativo',
          'bloqueada',
          'encerrada',
          'cancelada',
        ],
        gap: 3,
      },
    ],
  },
  blockList: { phrases: ['lista negra', 'listas negras', 'ip ... bloquead*'] },
  spam: { phrases: ['lixo eletrônico', 'não solicitad*'] },
  tryLater: {
    phrases: ['tente novamente mais tarde', 'tente mais tarde', 'tentar novamente mais tarde', 'tente novamente'],
  },
  refused: { phrases: ['rejeitad*', 'recusad*'] },
  outOfOffice: {
    phrases: ['resposta automática', 'fora do escritório', 'de férias', 'estou ausente', 'estarei ausente'],
  },
  senderAddress: {
    phrases: ['endereço do remetente', 'domínio do remetente', 'remetente ... inválido', 'remetente ... desconhecido'],
  },
  noConnection: { phrases: ['não foi possível conectar', 'tempo esgotado', 'conexão recusada'] },
};
