import { z } from 'zod';
import {
  addAllowlistRule,
  countCoveredEntries,
  listAllowlistRules,
  removeAllowlistRule,
  type AllowlistRule,
} from '../../src/allowlist/allowlist-repository.js';
import {
  allowlistPageSchema,
  allowlistRemovedSchema,
  allowlistRuleAddedSchema,
  type AllowlistPage,
  type AllowlistRemoved,
  type AllowlistRuleAdded,
  type AllowlistRuleResource,
} from '../../src/contract/allowlist.js';
import { cursorQuery, oneCursorAtATime, uuidParameter } from '../../src/contract/cursor-query.js';
import type { Database } from '../../src/db/database.js';
import type { Reads } from '../../src/db/reads.js';
import { newId } from '../../src/domain/ids.js';
import { AppError } from '../../src/errors.js';
import { normalizeDomain } from '../../src/suppressions/email-search.js';
import { accountOf } from '../http/authenticate.js';
import { pathParameter, type Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { jsonRequest } from '../openapi/requests.js';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses, JSON_TYPE } from '../openapi/responses.js';
import { requireEmail } from '../suppressions/targets.js';
import { isStorableText, UNSTORABLE_TEXT_RULE } from '../../src/domain/text.js';

/** What the `/allowlist` endpoints talk to. */
export interface AllowlistDeps {
  db: Database;
  /** Marks the account after a change: the check reads the allowlist, and must see the account's own rules. */
  reads?: Pick<Reads, 'wrote'> | undefined;
}

const tags = ['Allowlist'];
const ruleId = uuidParameter('an allowlist rule id');
const example = {
  object: 'allowlist_rule',
  id: '019ceba7-2d4e-7c10-9a3b-5e6f7a8b9c0d',
  email: null,
  domain: 'example.com',
  note: 'Our own staff',
  created_at: '2026-03-14T09:26:53.589Z',
} as const;

export const addRuleBodySchema = z
  .object(
    {
      email: z.string({ error: 'must be a string.' }).optional().meta({ description: 'An address the rule covers.' }),
      domain: z
        .string({ error: 'must be a string.' })
        .optional()
        .meta({ description: 'A domain whose addresses the rule covers (`example.com`; not its subdomains).' }),
      note: z
        .string({ error: 'must be a string.' })
        .trim()
        .min(1, { error: 'must not be empty.' })
        .max(500, { error: 'must be at most 500 characters.' })
        .refine(isStorableText, { error: `${UNSTORABLE_TEXT_RULE}.` })
        .optional()
        .meta({ description: 'Why the rule is there.' }),
    },
    { error: 'The request body must be a JSON object.' },
  )
  .refine((body) => (body.email === undefined) !== (body.domain === undefined), {
    error: 'Provide either `email` or `domain`.',
  });

const listQuerySchema = oneCursorAtATime(
  cursorQuery(ruleId, {
    after: { description: 'A rule id: the page of rules just older than it.', example: example.id },
    before: { description: 'A rule id: the page of rules just newer than it.', example: example.id },
  }),
);

const ruleParamsSchema = z.object({ rule: ruleId });

/** The rule's stored value: the address normalised, or the domain lower-cased; 422 when it is neither. */
export function ruleValueOf(body: { email?: string | undefined; domain?: string | undefined }): string {
  if (body.email !== undefined) return requireEmail(body.email, 'email');
  const domain = normalizeDomain(body.domain ?? '');
  if (domain === null) throw new AppError('validation_error', '`domain` must be a domain name, such as `example.com`.');
  return domain;
}

export function toAllowlistRuleResource(rule: AllowlistRule): AllowlistRuleResource {
  const isAddress = rule.value.includes('@');
  return {
    object: 'allowlist_rule',
    id: rule.id,
    email: isAddress ? rule.value : null,
    domain: isAddress ? null : rule.value,
    note: rule.note,
    created_at: rule.createdAt.toISOString(),
  };
}

export const listRulesEndpoint: Endpoint<AllowlistDeps> = {
  method: 'get',
  path: '/',
  access: 'full',
  doc: {
    operationId: 'listAllowlistRules',
    tags,
    summary: 'List the allowlist',
    request: { query: listQuerySchema },
    responses: {
      200: {
        description: 'A page of rules.',
        content: {
          [JSON_TYPE]: { schema: allowlistPageSchema, example: { object: 'list', has_more: false, data: [example] } },
        },
      },
      ...errorResponses(...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const query = parseInput(listQuerySchema, req.query);
      const page = await listAllowlistRules(db, { accountId: accountOf(res), ...query });
      res.json({
        object: 'list',
        has_more: page.hasMore,
        data: page.rules.map(toAllowlistRuleResource),
      } satisfies AllowlistPage);
    },
};

export const addRuleEndpoint: Endpoint<AllowlistDeps> = {
  method: 'post',
  path: '/',
  access: 'full',
  body: 'json',
  doc: {
    operationId: 'addAllowlistRule',
    tags,
    summary: 'Add an address or a domain to the allowlist',
    description:
      'An allowlisted address is never added by an event, a feed, an import or a person, and the check never reports it suppressed; a recipient’s own one-click unsubscribe is the one exception. Entries already on the list are kept: `covered_entries` says how many the rule covers. A rule of the same value is kept as it is (201 with it).',
    request: {
      body: jsonRequest(addRuleBodySchema, { example: { domain: 'example.com', note: 'Our own staff' } }),
    },
    responses: {
      201: {
        description: 'The rule, and the entries it covers.',
        content: { [JSON_TYPE]: { schema: allowlistRuleAddedSchema, example: { ...example, covered_entries: 3 } } },
      },
      ...errorResponses(...BODY_ERRORS, ...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db, reads }) =>
    async (req, res) => {
      const body = parseInput(addRuleBodySchema, req.body);
      const value = ruleValueOf(body);
      const accountId = accountOf(res);
      const { rule } = await addAllowlistRule(db, { id: newId(), accountId, value, note: body.note ?? null });
      await reads?.wrote(accountId);
      const covered = await countCoveredEntries(db, accountId, value);
      res.status(201).json({ ...toAllowlistRuleResource(rule), covered_entries: covered } satisfies AllowlistRuleAdded);
    },
};

export const removeRuleEndpoint: Endpoint<AllowlistDeps> = {
  method: 'delete',
  path: '/:rule',
  access: 'full',
  doc: {
    operationId: 'removeAllowlistRule',
    tags,
    summary: 'Remove a rule from the allowlist',
    description: 'The addresses it covered may be suppressed again from now on; nothing is added back by itself.',
    request: { params: ruleParamsSchema },
    responses: {
      200: {
        description: 'The rule was removed.',
        content: {
          [JSON_TYPE]: {
            schema: allowlistRemovedSchema,
            example: { object: 'allowlist_rule', id: example.id, deleted: true },
          },
        },
      },
      ...errorResponses('not_found', ...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ db, reads }) =>
    async (req, res) => {
      const { rule } = parseInput(ruleParamsSchema, { rule: pathParameter(req, 'rule') });
      const removed = await removeAllowlistRule(db, accountOf(res), rule);
      await reads?.wrote(accountOf(res));
      if (!removed) throw new AppError('not_found');
      res.json({ object: 'allowlist_rule', id: rule, deleted: true } satisfies AllowlistRemoved);
    },
};
