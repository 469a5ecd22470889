import type { Request } from 'express';
import { MAX_CHECK_ITEMS } from '../../src/contract/limits.js';
import { scopeInput } from '../../src/contract/scope.js';
import {
  secretRotatedSchema,
  unsubscribeLinksSchema,
  type SecretRotated,
  type UnsubscribeLinks,
} from '../../src/contract/unsubscribe.js';
import type { Database } from '../../src/db/database.js';
import { partitionEmails } from '../../src/domain/email-batch.js';
import { AppError } from '../../src/errors.js';
import { rotateUnsubscribeSecret, unsubscribeSecret } from '../../src/unsubscribe/unsubscribe-secret-repository.js';
import { sealUnsubscribeToken } from '../../src/unsubscribe/unsubscribe-token.js';
import { z } from 'zod';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { jsonRequest } from '../openapi/requests.js';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses, JSON_TYPE } from '../openapi/responses.js';
import { UNSUBSCRIBE_PATH } from './paths.js';

/** What the `/unsubscribe-links` endpoints talk to. */
export interface UnsubscribeLinksDeps {
  db: Database;
  /** `PUBLIC_BASE_URL`: where recipients reach the service; without it, where the request came. */
  publicBaseUrl?: string | undefined;
}

const tags = ['Unsubscribe'];

export const linksBodySchema = z.object(
  {
    emails: z
      .array(z.string({ error: 'must be a string.' }), { error: `must be an array of 1 to ${MAX_CHECK_ITEMS} items.` })
      .min(1, { error: 'must have at least 1 item.' })
      .max(MAX_CHECK_ITEMS, { error: `must have at most ${MAX_CHECK_ITEMS} items.` }),
    scope: scopeInput.optional().meta({
      description:
        'The scope the links unsubscribe from (a newsletter, a stream); without it, all mail of the account.',
    }),
  },
  { error: 'The request body must be a JSON object.' },
);

const ONE_CLICK = 'List-Unsubscribe=One-Click';

// A host name, an IPv4 address or a bracketed IPv6 one, and a port: what a link may be built from.
const PLAIN_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * PUBLIC_BASE_URL, which production requires (`src/production-settings.ts`). Without it, outside
 * production, the request's own address, but only from a plain `Host`: the header is the caller's to
 * write, and anything else in it would become part of the links (a second link in `List-Unsubscribe`).
 */
function baseUrlOf(req: Request, configured: string | undefined): string {
  if (configured !== undefined) return configured;
  const host = req.get('host') ?? 'localhost';
  if (!PLAIN_HOST.test(host)) {
    throw new AppError(
      'validation_error',
      'The request’s `Host` header is not a plain host and port, so no link can be built from it; set PUBLIC_BASE_URL.',
    );
  }
  return `${req.protocol}://${host}`;
}

/** The headers of RFC 8058 for each address, for the mail system to add to the messages it sends. */
export const createLinksEndpoint: Endpoint<UnsubscribeLinksDeps> = {
  method: 'post',
  path: '/',
  access: 'sending',
  body: 'json',
  doc: {
    operationId: 'createUnsubscribeLinks',
    tags,
    summary: `One-click unsubscribe headers for 1 to ${MAX_CHECK_ITEMS} addresses`,
    description:
      'For a `full_access` or `sending_access` key. Each link is sealed (the account, the address, the scope; nothing in it can be read) and works until the account rotates its unsubscribe secret. Items that are not addresses are listed in `invalid`.',
    request: {
      body: jsonRequest(linksBodySchema, { example: { emails: ['reader@example.com'], scope: 'newsletter-weekly' } }),
    },
    responses: {
      200: {
        description: 'The headers of each address.',
        content: {
          [JSON_TYPE]: {
            schema: unsubscribeLinksSchema,
            example: {
              object: 'unsubscribe_links',
              scope: 'newsletter-weekly',
              data: [
                {
                  email: 'reader@example.com',
                  url: 'https://mail.example.com/unsubscribe/AQGc66uI',
                  list_unsubscribe: '<https://mail.example.com/unsubscribe/AQGc66uI>',
                  list_unsubscribe_post: ONE_CLICK,
                },
              ],
              invalid: [],
            },
          },
        },
      },
      ...errorResponses(...BODY_ERRORS, ...AUTHENTICATED_ERRORS.filter((code) => code !== 'restricted_api_key')),
    },
  },
  handler:
    ({ db, publicBaseUrl }) =>
    async (req, res) => {
      const body = parseInput(linksBodySchema, req.body);
      const accountId = accountOf(res);
      const { valid, invalid } = partitionEmails(body.emails);
      const scope = body.scope ?? null;
      const secret = await unsubscribeSecret(db, accountId);
      const base = `${baseUrlOf(req, publicBaseUrl)}${UNSUBSCRIBE_PATH}`;
      res.json({
        object: 'unsubscribe_links',
        scope,
        data: valid.map((email) => {
          const url = `${base}/${sealUnsubscribeToken(secret, { accountId, email, scope })}`;
          return { email, url, list_unsubscribe: `<${url}>`, list_unsubscribe_post: ONE_CLICK };
        }),
        invalid: invalid.map(({ index, value, reason }) => ({ index, email: value, reason })),
      } satisfies UnsubscribeLinks);
    },
};

export const rotateSecretEndpoint: Endpoint<UnsubscribeLinksDeps> = {
  method: 'post',
  path: '/secret/rotate',
  access: 'full',
  doc: {
    operationId: 'rotateUnsubscribeSecret',
    tags,
    summary: 'End every unsubscribe link made so far',
    description:
      'A new secret seals the links made from now on; a link made before answers 404 and writes nothing. Unsubscribes already made stay on the list.',
    responses: {
      200: {
        description: 'The secret was replaced.',
        content: {
          [JSON_TYPE]: { schema: secretRotatedSchema, example: { object: 'unsubscribe_secret', rotated: true } },
        },
      },
      ...errorResponses(...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db }) =>
    async (_req, res) => {
      await rotateUnsubscribeSecret(db, accountOf(res));
      res.json({ object: 'unsubscribe_secret', rotated: true } satisfies SecretRotated);
    },
};
