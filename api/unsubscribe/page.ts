import type { Request } from 'express';
import { z } from 'zod';
import { unsubscribedSchema, type Unsubscribed } from '../../src/contract/unsubscribe.js';
import type { Database } from '../../src/db/database.js';
import type { Reads } from '../../src/db/reads.js';
import { AppError } from '../../src/errors.js';
import { isUnsubscribed, linkTarget, unsubscribe } from '../../src/unsubscribe/unsubscribe.js';
import type { UnsubscribeTarget } from '../../src/unsubscribe/unsubscribe-token.js';
import type { AuthFailureLimit } from '../http/auth-failure-limit.js';
import { pathParameter, type Endpoint } from '../http/endpoints.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';
import { sendPage } from './page-html.js';

/** What the link's page talks to. */
export interface UnsubscribePageDeps {
  db: Database;
  /** Links that are not valid count as failed sign-ins do, per client address. */
  failureLimit?: AuthFailureLimit | undefined;
  /** Marks the link's account after an unsubscribe, whose reads then stay on the primary. */
  reads?: Pick<Reads, 'wrote'> | undefined;
}

const tags = ['Unsubscribe'];
const tokenParams = z.object({
  token: z.string().meta({ description: 'The token of a link made by `POST /unsubscribe-links`.' }),
});

/** The mail a link stops, as a sentence names it: all of the sender's, or that of one scope. */
const mailOf = (target: UnsubscribeTarget): string =>
  target.scope === null ? 'mail from this sender' : `“${target.scope}” mail from this sender`;

/** What the page says once the address is unsubscribed. */
const unsubscribedText = (target: UnsubscribeTarget): string => `${target.email} no longer receives ${mailOf(target)}.`;

/** The link's target, or null after counting the failure against the client's address. */
async function targetOf(req: Request, deps: UnsubscribePageDeps): Promise<UnsubscribeTarget | null> {
  if (deps.failureLimit) await deps.failureLimit.check(req);
  const target = await linkTarget(deps.db, pathParameter(req, 'token'));
  if (target === null) deps.failureLimit?.recordFailure(req);
  return target;
}

/** The one-click key/value of RFC 8058, sent as a form or as multipart/form-data. */
function saysOneClick(req: Request): boolean {
  const body = typeof req.body === 'string' ? req.body : '';
  if (req.is('multipart/form-data')) {
    return /name="List-Unsubscribe"\r?\n(?:[^\r\n]+\r?\n)*\r?\nOne-Click\r?\n/.test(body);
  }
  return new URLSearchParams(body).get('List-Unsubscribe') === 'One-Click';
}

/** A mail scanner follows links: the page changes nothing, and offers the one button that does. */
export const unsubscribePageEndpoint: Endpoint<UnsubscribePageDeps> = {
  method: 'get',
  path: '/:token',
  access: 'public',
  doc: {
    operationId: 'unsubscribePage',
    tags,
    summary: 'The page of an unsubscribe link (changes nothing)',
    request: { params: tokenParams },
    responses: {
      200: {
        description:
          'An HTML page with one button, or saying the address is unsubscribed already. A link that is not valid answers 404: a page to a browser (`Accept: text/html`), the JSON error to any other client.',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
      ...errorResponses('not_found', 'rate_limit_exceeded'),
    },
  },
  handler: (deps) => async (req, res) => {
    const target = await targetOf(req, deps);
    if (target === null) {
      // A person's browser gets a page; any other client the API's JSON error.
      if (req.accepts(['json', 'html']) !== 'html')
        throw new AppError('not_found', 'This unsubscribe link is not valid.');
      sendPage(res, 404, {
        title: 'This link is not valid',
        text: 'Nothing was changed. Check the link in the email.',
      });
      return;
    }
    if (await isUnsubscribed(deps.db, target)) {
      sendPage(res, 200, {
        title: 'You are unsubscribed',
        text: unsubscribedText(target),
      });
      return;
    }
    sendPage(res, 200, {
      title: 'Unsubscribe?',
      text: `${target.email} will no longer receive ${mailOf(target)}.`,
      form: true,
    });
  },
};

/** RFC 8058's one-click POST, sent by the mailbox provider or by the page's button. */
export const unsubscribeEndpoint: Endpoint<UnsubscribePageDeps> = {
  method: 'post',
  path: '/:token',
  access: 'public',
  body: 'form',
  doc: {
    operationId: 'unsubscribe',
    tags,
    summary: 'Unsubscribe (RFC 8058 one-click)',
    description:
      'The body is `List-Unsubscribe=One-Click` (`application/x-www-form-urlencoded` or `multipart/form-data`); no key, no cookie. Adds the address to the link’s scope with origin `unsubscribe`, at once; the same link again changes nothing and answers 200. A browser (`Accept: text/html`) gets a page.',
    request: {
      params: tokenParams,
      body: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': { schema: { type: 'string' }, example: 'List-Unsubscribe=One-Click' },
        },
      },
    },
    responses: {
      200: {
        description: 'The address is unsubscribed.',
        content: {
          [JSON_TYPE]: { schema: unsubscribedSchema, example: { object: 'unsubscribe', unsubscribed: true } },
        },
      },
      ...errorResponses('validation_error', 'not_found', 'rate_limit_exceeded'),
    },
  },
  handler: (deps) => async (req, res) => {
    if (!saysOneClick(req)) throw new AppError('validation_error', 'The body must be `List-Unsubscribe=One-Click`.');
    const target = await targetOf(req, deps);
    if (target === null) throw new AppError('not_found', 'This unsubscribe link is not valid.');
    await unsubscribe(deps.db, target);
    await deps.reads?.wrote(target.accountId);
    if (req.accepts(['json', 'html']) === 'html') {
      sendPage(res, 200, {
        title: 'You are unsubscribed',
        text: unsubscribedText(target),
      });
      return;
    }
    res.set('cache-control', 'no-store').json({ object: 'unsubscribe', unsubscribed: true } satisfies Unsubscribed);
  },
};
