import type { Lexicon } from './lexicon.js';

/** Spanish (Telefónica, Terra, Prodigy, Exchange and Domino in Spanish). Accents are read without them. */
export const SPANISH: Lexicon = {
  unknownUser: {
    phrases: ['no existe dicha persona', 'no existe ese usuario', 'ningún usuario', 'no se encuentra en el directorio'],
    families: [
      {
        subjects: [
          'usuario',
          'destinatario',
          'dirección',
          'dirección de correo',
          'dirección de email',
          'correo electrónico',
          'cuenta',
          'buzón',
          'casilla',
          'casilla de correo',
        ],
        predicates: [
          'desconocido',
          'desconocida',
          'no existe',
          'ya no existe',
          'inexistente',
          'no encontrado',
          'no encontrada',
          'no se encuentra',
          'no fue encontrado',
          'no fue encontrada',
          'no válido',
          'no válida',
          'no es válido',
          'no es válida',
          'inválido',
          'inválida',
          'no registrado',
          'no registrada',
        ],
        qualifiers: ['no existe'],
        gap: 3,
        notWith: ['ip', 'remitente', 'su'],
      },
    ],
  },
  unknownDomain: {
    families: [
      {
        subjects: ['dominio', 'nombre de dominio', 'host'],
        predicates: ['desconocido', 'no existe', 'inexistente', 'no encontrado', 'no válido', 'inválido'],
        gap: 1,
        notWith: ['remitente', 'su'],
      },
    ],
  },
  fullMailbox: {
    phrases: ['cuota excedida', 'cuota superada', 'sin espacio disponible'],
    families: [
      {
        subjects: ['buzón', 'casilla', 'cuota', 'bandeja de entrada', 'espacio de almacenamiento'],
        predicates: [
          'lleno',
          'llena',
          'está lleno',
          'está llena',
          'excedido',
          'excedida',
          'ha excedido',
          'superado',
          'superada',
          'agotado',
          'agotada',
        ],
        qualifiers: ['excedido', 'excedida', 'superado', 'superada'],
        gap: 3,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['cuenta', 'buzón', 'casilla', 'usuario'],
        predicates: [
          'desactivada',
          'desactivado',
          'deshabilitada',
          'deshabilitado',
          'suspendida',
          'suspendido',
          'inactiva',
          'inactivo',
          'bloqueada',
          'cerrada',
          'dada de baja',
        ],
        gap: 3,
      },
    ],
  },
  blockList: { phrases: ['lista negra', 'listas negras', 'ip ... bloquead*'] },
  spam: { phrases: ['correo no deseado', 'no deseado'] },
  tryLater: {
    phrases: [
      'inténtelo más tarde',
      'intente más tarde',
      'intente nuevamente más tarde',
      'vuelva a intentarlo',
      'reintente más tarde',
    ],
  },
  refused: { phrases: ['rechazado', 'rechazada', 'rechazó'] },
  outOfOffice: {
    phrases: [
      'respuesta automática',
      'fuera de la oficina',
      'de vacaciones',
      'estoy ausente',
      'estaré ausente',
      'de regreso el',
    ],
  },
  senderAddress: {
    phrases: [
      'dirección del remitente',
      'dominio del remitente',
      'remitente ... no válido',
      'remitente ... inválido',
      'remitente ... desconocido',
    ],
  },
  noConnection: { phrases: ['no se pudo conectar', 'tiempo de espera agotado', 'conexión rechazada'] },
};
