import { MAX_CHECK_ITEMS } from '../../src/contract/limits.js';
import {
  returnPathListSchema,
  returnPathSecretSchema,
  type ReturnPathList,
  type ReturnPathSecretResource,
} from '../../src/contract/return-paths.js';
import type { Database } from '../../src/db/database.js';
import { AppError, invalidField } from '../../src/errors.js';
import { makeReturnPaths } from '../../src/mail/return-paths/make.js';
import {
  currentReturnPathSecret,
  overlapEnd,
  rotateReturnPathSecret,
  type StoredReturnPathSecret,
} from '../../src/mail/return-paths/secret-repository.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { jsonRequest } from '../openapi/requests.js';
import {
  AUTHENTICATED_ERRORS,
  authenticatedErrors,
  BODY_ERRORS,
  errorResponses,
  jsonAnswer,
} from '../openapi/responses.js';
import { requireEmail } from '../suppressions/targets.js';
import { returnPathsBodySchema } from './schemas.js';

/** What the `/return-paths` endpoints talk to, and where return paths go (`BOUNCE_*`). */
export interface ReturnPathsDeps {
  db: Database;
  bounceDomains: readonly string[];
  localPart: string;
  /** `RETURN_PATH_SECRET_OVERLAP_DAYS`. */
  overlapDays: number;
}

const tags = ['Return paths'];

const EXAMPLE_SECRET = {
  object: 'return_path_secret',
  id: '2c8d9a41',
  secret: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8',
  domains: ['bounces.example.com'],
  local_part: 'bounces',
  created_at: '2026-11-25T11:20:48.115Z',
  previous_valid_until: null,
} as const;

/** The bounce domains, or the 409 that says to set them. */
function configuredDomains(bounceDomains: readonly string[]): readonly string[] {
  if (bounceDomains.length === 0) throw new AppError('return_paths_not_configured');
  return bounceDomains;
}

function toSecretResource(
  secret: StoredReturnPathSecret,
  deps: Pick<ReturnPathsDeps, 'bounceDomains' | 'localPart'>,
  previousValidUntil: Date | null,
): ReturnPathSecretResource {
  return {
    object: 'return_path_secret',
    id: secret.id.toString('hex'),
    secret: secret.secret.toString('base64url'),
    domains: [...deps.bounceDomains],
    local_part: deps.localPart,
    created_at: secret.createdAt.toISOString(),
    previous_valid_until: previousValidUntil?.toISOString() ?? null,
  };
}

/** A sending key may call it: the mail system asks for the envelope senders of the messages it is about to send. */
export const createReturnPathsEndpoint: Endpoint<ReturnPathsDeps> = {
  method: 'post',
  path: '/',
  access: 'sending',
  body: 'json',
  doc: {
    operationId: 'createReturnPaths',
    tags,
    summary: `Signed VERP return paths for 1 to ${MAX_CHECK_ITEMS.toLocaleString('en')} recipients`,
    description:
      'For a `full_access` or `sending_access` key. Each return path carries the account, the recipient, the scope and a digest of the Message-ID, signed with the account’s return-path secret (made with its first return path), so that a bounce or a complaint that comes back to it is known to be about that recipient, and a forged one naming anyone else is not. Every item must be an address: the first that is not answers 422 naming its index. The client library makes the same return paths locally from the secret (`GET /return-paths/secret`).',
    request: {
      body: jsonRequest(returnPathsBodySchema, {
        example: {
          recipients: ['reader@example.com'],
          scope: 'newsletter-weekly',
          message_id: '<0f1e2d3c@mail.example.com>',
        },
      }),
    },
    responses: {
      200: jsonAnswer('The return path of each recipient, in order.', returnPathListSchema, {
        object: 'list',
        data: [
          {
            email: 'reader@example.com',
            return_path:
              'bounces+aewi3gsbsfxgk53tnrsxi5dfoiwxozlfnnwhscehb3v7ollsmvqwizlsibsxqylnobwgkltdn5w75oiczwtkcyrbic5q@bounces.example.com',
          },
        ],
      }),
      ...errorResponses(
        'return_paths_not_configured',
        ...BODY_ERRORS,
        ...AUTHENTICATED_ERRORS.filter((code) => code !== 'restricted_api_key'),
      ),
    },
  },
  handler: (deps) => async (req, res) => {
    const domains = configuredDomains(deps.bounceDomains);
    const body = parseInput(returnPathsBodySchema, req.body);
    const domain = body.domain === undefined ? domains[0] : body.domain.trim().toLowerCase();
    if (domain === undefined || !domains.includes(domain)) {
      throw invalidField('domain', `must be one of the service’s bounce domains: ${domains.join(', ')}.`);
    }
    // Every item answered in its place, repeats included; the first that is not an address refuses the request.
    const recipients = body.recipients.map((value, index) => requireEmail(value, `recipients[${index}]`));
    const paths = await makeReturnPaths(deps.db, accountOf(res), {
      recipients,
      scope: body.scope ?? null,
      messageId: body.message_id ?? null,
      localPart: deps.localPart,
      domain,
    });
    res.json({
      object: 'list',
      data: recipients.map((email, index) => ({ email, return_path: paths[index] as string })),
    } satisfies ReturnPathList);
  },
};

export const getSecretEndpoint: Endpoint<ReturnPathsDeps> = {
  method: 'get',
  path: '/secret',
  access: 'full',
  doc: {
    operationId: 'getReturnPathSecret',
    tags,
    summary: 'The secret that signs the account’s return paths',
    description:
      'For a `full_access` key only: with it, a sender makes return paths itself (the client library’s `makeReturnPath`, or any language from the layout in docs/mail.md), the same as `POST /return-paths` answers. The first call makes the secret if no return path has. Whoever holds it can only make return paths of this account, and so suppress only its own recipients, which a `full_access` key can do anyway.',
    responses: {
      200: jsonAnswer('The current secret, and where return paths go.', returnPathSecretSchema, EXAMPLE_SECRET),
      ...authenticatedErrors('return_paths_not_configured'),
    },
  },
  handler: (deps) => async (_req, res) => {
    configuredDomains(deps.bounceDomains);
    const accountId = accountOf(res);
    const secret = await currentReturnPathSecret(deps.db, accountId);
    const previous = await overlapEnd(deps.db, accountId, new Date());
    res.json(toSecretResource(secret, deps, previous) satisfies ReturnPathSecretResource);
  },
};

export const rotateSecretEndpoint: Endpoint<ReturnPathsDeps> = {
  method: 'post',
  path: '/secret/rotate',
  access: 'full',
  doc: {
    operationId: 'rotateReturnPathSecret',
    tags,
    summary: 'Replace the secret that signs the account’s return paths',
    description:
      'No body. A new secret signs every return path from now on; the one it replaces goes on verifying the return paths made with it for `RETURN_PATH_SECRET_OVERLAP_DAYS` (7 days unless the operator says otherwise: longer than mail systems keep retrying a message), and then stops. Answers the new secret, and when the old one stops in `previous_valid_until`.',
    responses: {
      200: jsonAnswer('The new secret.', returnPathSecretSchema, {
        ...EXAMPLE_SECRET,
        previous_valid_until: '2026-12-02T11:20:48.115Z',
      }),
      ...authenticatedErrors(),
    },
  },
  handler: (deps) => async (_req, res) => {
    const accountId = accountOf(res);
    const { current } = await rotateReturnPathSecret(deps.db, accountId, deps.overlapDays);
    const previous = await overlapEnd(deps.db, accountId, new Date());
    res.json(toSecretResource(current, deps, previous) satisfies ReturnPathSecretResource);
  },
};
