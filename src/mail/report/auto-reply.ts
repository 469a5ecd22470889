import type { Header } from 'postal-mime';
import { headerValue } from './report-headers.js';

// Subjects that automatic responders put first (English, German, French, Spanish, Italian, Japanese
// ones of the corpus' senders and of the common clients). Linear: fixed words after the start.
const AUTO_REPLY_SUBJECT =
  /^\s*(?:auto(?:matic)?[\s_-]?(?:reply|response|antwort|answer|respuesta|risposta)|autoreply|autorespond|out of (?:the )?office|abwesenheit|absence|réponse automatique|respuesta automática|risposta automatica|vacation|on vacation|away from|自動応答|自動返信|不在)/i;

/**
 * Whether the message is an automatic reply (RFC 3834): `Auto-Submitted: auto-replied`, the
 * responders' own headers (`X-Autoreply`, `X-Autorespond`),
 * `Precedence: auto_reply`, or a responder's subject.
 */
export function isAutoReply(headers: readonly Header[], subject: string | null): boolean {
  const submitted = headerValue(headers, 'auto-submitted')?.toLowerCase() ?? '';
  if (submitted.startsWith('auto-replied')) return true;
  if (headers.some((header) => header.key === 'x-autoreply' || header.key === 'x-autorespond')) return true;
  if (headerValue(headers, 'precedence')?.toLowerCase() === 'auto_reply') return true;
  return subject !== null && AUTO_REPLY_SUBJECT.test(subject);
}
