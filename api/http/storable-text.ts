import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { findUnstorableText, UNSTORABLE_TEXT_RULE } from '../../src/domain/text.js';
import { AppError, invalidField } from '../../src/errors.js';

// Percent-decoding yields NUL from `%00`; it never yields an unpaired surrogate, since a byte
// sequence that is not UTF-8 fails to decode (400) or becomes U+FFFD.
const ENCODED_NUL = /%00/i;

/**
 * Refuses (422) a request whose query or path would put NUL into a lookup: no valid id, address,
 * scope, cursor or filter contains one, and PostgreSQL would refuse the statement. A query parameter
 * is named.
 */
export function refuseUnstorableUrl(req: Request, _res: Response, next: NextFunction): void {
  if (!ENCODED_NUL.test(req.url)) {
    next();
    return;
  }
  const at = findUnstorableText(req.query);
  if (at !== null && !at.startsWith('a key')) throw invalidField(at, `${UNSTORABLE_TEXT_RULE}.`);
  throw new AppError('validation_error', 'The request’s path and query must not contain NUL characters (`%00`).');
}

/** Where `jsonBodyOfStorableText` notes that a body has `\u` escapes, the one way JSON writes NUL or a surrogate. */
const ESCAPED = Symbol('escapedText');
const ESCAPE = Buffer.from('\\u');

type Noted = Request & { [ESCAPED]?: boolean };

/**
 * Refuses (422) a JSON body holding text that cannot be stored, naming where: whoever sent it can
 * send it again without.
 */
function refuseUnstorableBody(req: Request, _res: Response, next: NextFunction): void {
  if ((req as Noted)[ESCAPED] === true) {
    const at = findUnstorableText(req.body);
    if (at !== null) {
      throw at === ''
        ? new AppError('validation_error', `The body ${UNSTORABLE_TEXT_RULE}.`)
        : invalidField(at, `${UNSTORABLE_TEXT_RULE}.`);
    }
  }
  next();
}

/**
 * The JSON body parser of every route whose body is the caller's own words (events, which strip
 * such text instead, have the plain one: `src/events/event-schema.ts`). JSON can hold NUL or an
 * unpaired surrogate only as a `\u` escape, since raw control characters are not JSON and UTF-8
 * has no form for a surrogate: only a body whose bytes hold `\u` is walked, and a check's 1,000
 * plain addresses cost one search of their bytes.
 */
export function jsonBodyOfStorableText(limit: string): RequestHandler {
  const parse = Router();
  parse.use(
    express.json({
      limit,
      strict: true,
      verify: (req, _res, bytes) => {
        (req as Noted)[ESCAPED] = bytes.includes(ESCAPE);
      },
    }),
    refuseUnstorableBody,
  );
  return parse;
}
