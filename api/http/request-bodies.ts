import express, { type RequestHandler } from 'express';
import { REQUEST_BODY_LIMIT } from '../../src/config.js';
import { CLASSIFY_BODY_LIMIT_MIB } from '../../src/contract/limits.js';
import { MAIL_MESSAGE_LIMIT } from '../../src/mail-config.js';
import { jsonBodyOfStorableText } from './storable-text.js';

/**
 * How an endpoint takes its request body, which says what reads it before the handler:
 *
 * - `none`: no body, and nothing reads one. Resend's SDKs send `Content-Type: application/json` on
 *   bodiless GET and DELETE too; no parser sees those requests.
 * - `json`: the caller's own words as JSON. Text that cannot be stored (NUL, an unpaired surrogate)
 *   is refused (422) before the handler: whoever sent it can send it again without.
 * - `bounces`: JSON as `json` is, up to a larger limit: what the most bounces `POST /bounces/classify`
 *   takes need, each at its longest (`CLASSIFY_BODY_LIMIT_MIB`).
 * - `evidence`: JSON that mail systems report, parsed as it was sent. Its schema strips what cannot
 *   be stored instead (`src/events/event-schema.ts`): the event happened whatever bytes it carries.
 * - `form`: RFC 8058's one-click form, read as text whatever its type (urlencoded or multipart).
 * - `raw`: bytes, verbatim, whatever their type: a provider's payload, verified over them.
 * - `message`: a mail message's bytes (`message/rfc822`), verbatim, up to a mail message's limit.
 * - `stream`: read by the handler as it arrives (an import's list), so never buffered here.
 */
export type BodyKind = 'none' | 'json' | 'bounces' | 'evidence' | 'form' | 'raw' | 'message' | 'stream';

/** A one-click body is one short field; nothing longer is read. */
const ONE_CLICK_LIMIT = '16kb';

const everyType = () => true;

/** Made once: a parser holds no state of a request, so every route of a kind shares it. */
const PARSERS: Readonly<Record<BodyKind, RequestHandler | undefined>> = {
  none: undefined,
  json: jsonBodyOfStorableText(REQUEST_BODY_LIMIT),
  bounces: jsonBodyOfStorableText(`${CLASSIFY_BODY_LIMIT_MIB}mb`),
  evidence: express.json({ limit: REQUEST_BODY_LIMIT, strict: true }),
  form: express.text({ type: everyType, limit: ONE_CLICK_LIMIT }),
  raw: express.raw({ type: everyType, limit: REQUEST_BODY_LIMIT }),
  message: express.raw({ type: everyType, limit: MAIL_MESSAGE_LIMIT }),
  stream: undefined,
};

/** What reads a body of this kind before the handler; nothing for `none` and `stream`. */
export function bodyParserOf(kind: BodyKind): RequestHandler | undefined {
  return PARSERS[kind];
}

/** Whether the body is JSON, which a client may send malformed or with text that cannot be stored. */
export function isJson(kind: BodyKind): boolean {
  return kind === 'json' || kind === 'bounces' || kind === 'evidence';
}

/** Whether the whole body (or its absence) is known before the handler, so an idempotency key can fingerprint it. */
export function isReadFirst(kind: BodyKind): boolean {
  return kind !== 'stream';
}
