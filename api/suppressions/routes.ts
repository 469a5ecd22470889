import { Router, type Request, type RequestHandler } from 'express';
import type { AuditRecordPage } from '../../src/contract/audit-record.js';
import type { SuppressionCheck } from '../../src/contract/check.js';
import type {
  BatchAddResult,
  BatchRemoveResult,
  RemovalResult,
  SuppressionPage,
  SuppressionRef,
  SuppressionResource,
} from '../../src/contract/suppression.js';
import type { Database } from '../../src/db/database.js';
import { historyAddress, listHistory } from '../../src/suppressions/suppression-history.js';
import { streamSuppressions } from '../../src/export/suppression-export.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import {
  addSuppressions,
  listSuppressions,
  removeSuppressions,
} from '../../src/suppressions/suppression-repository.js';
import { UnknownCursorError } from '../../src/db/keyset-page.js';
import { toAuditRecordResource } from '../../src/suppressions/audit-record.js';
import { emailProblem, normalizeEmail } from '../../src/domain/email.js';
import { partitionEmails } from '../../src/domain/email-batch.js';
import { isUuid, newId } from '../../src/domain/ids.js';
import { toResource } from '../../src/suppressions/suppression.js';
import { AppError, invalidField } from '../../src/errors.js';
import { writeExport } from '../../src/export/write-export.js';
import { accountOf, callerOf } from '../http/authenticate.js';
import { methodNotAllowed } from '../http/errors.js';
import { namedRoute } from '../http/route-pattern.js';
import {
  addBodySchema,
  batchAddBodySchema,
  batchRemoveBodySchema,
  checkBodySchema,
  exportQuerySchema,
  historyQuerySchema,
  listQuerySchema,
} from './schemas.js';
import { parseInput } from '../http/validation.js';
import { addImportRoutes, type ImportsOptions } from './import-routes.js';

/** Normalised, distinct addresses; the first invalid one rejects the whole request. */
function requireEmails(raw: readonly string[], field: string): string[] {
  const { valid, invalid } = partitionEmails(raw);
  const first = invalid[0];
  if (first) throw invalidField(`${field}[${first.index}]`, `${first.reason}.`);
  return valid;
}

function requireEmail(raw: string, field: string): string {
  const email = normalizeEmail(raw);
  const problem = emailProblem(email);
  if (problem !== null) throw invalidField(field, `${problem}.`);
  return email;
}

type PathTarget = { id: string } | { email: string };

/** `{suppression}` is an id when it looks like a UUID, otherwise an email address. */
function pathTarget(value: string): PathTarget {
  if (isUuid(value)) return { id: value.toLowerCase() };
  const email = normalizeEmail(value);
  if (emailProblem(email) !== null) {
    throw invalidField('suppression', 'must be a suppression id or an email address.');
  }
  return { email };
}

/** The entries, the first of which was read already. Returning it returns the rest (the cursor's client goes back). */
async function* startingWith<T>(
  first: IteratorResult<T, void>,
  rest: AsyncGenerator<T, void, undefined>,
): AsyncGenerator<T, void, undefined> {
  try {
    if (first.done) return;
    yield first.value;
    yield* rest;
  } finally {
    await rest.return();
  }
}

/** Where `suppressionsRouter` is mounted. */
export const SUPPRESSIONS_PATH = '/suppressions';

/** The one request a `sending_access` key may make: the send-time check (path relative to the router). */
export function isSendingRequest(req: Request): boolean {
  return req.method === 'POST' && req.path === '/check';
}

/**
 * The five endpoints (and `POST /suppressions`), an address's history, export and imports. `guards`
 * (authentication, rate limiting, body parsing) run first for every request that reaches the
 * router: inside it, rather than as layers of their own on the app's mount path, they cost no path
 * trimming per request. `mountPath` names its routes in metrics and logs: the console mounts it too.
 */
export function suppressionsRouter(
  db: Database,
  guards: readonly RequestHandler[],
  imports: ImportsOptions,
  mountPath: string = SUPPRESSIONS_PATH,
): Router {
  const router = Router();
  if (guards.length > 0) router.use(...guards);
  const route = <Path extends string>(path: Path) => namedRoute(router, mountPath, path);
  // Concurrent lookups of one tick share one query per account.
  const lookups = createSuppressionLookups(db);

  // The send-time check: before `/:suppression`, whose single segment it would otherwise be.
  route('/check')
    .post(async (req, res) => {
      const body = parseInput(checkBodySchema, req.body);
      const { valid, invalid } = partitionEmails(body.emails);
      // First-seen order in, first-seen order out: `suppressed` lists each address once, as it first appeared.
      const found = await lookups.byEmails(accountOf(res), valid);
      res.json({
        object: 'suppression_check',
        checked: valid.length,
        suppressed: found.filter((entry) => entry !== null).map(toResource),
        invalid: invalid.map(({ index, value, reason }) => ({ index, email: value, reason })),
      } satisfies SuppressionCheck);
    })
    .all(methodNotAllowed('POST'));

  // The whole list as a file, streamed from a server-side cursor in constant memory; one request
  // of the rate limit however long it runs. Before `/:suppression`, which would read it as an address.
  route('/export')
    .get(async (req, res) => {
      const query = parseInput(exportQuerySchema, req.query);
      const entries = streamSuppressions(db, { accountId: accountOf(res), origin: query.origin });
      // Read before anything is sent, so a database that cannot be reached still answers 503 in JSON.
      const first = await entries.next();
      // attachment() sets a type from the file name; the exact type, with its charset, comes after it.
      res
        .status(200)
        .attachment(`suppressions.${query.format}`)
        .type(query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
      try {
        await writeExport(startingWith(first, entries), res, query.format);
      } catch {
        // Half a file has been sent: cutting the connection, rather than ending the body, tells the
        // client it is incomplete.
        res.destroy();
      }
    })
    .all(methodNotAllowed('GET'));

  addImportRoutes(router, mountPath, db, imports);

  // Lookups next: by far the most frequent. A single segment never matches `/batch/add` or `/batch/remove`.
  route('/:suppression')
    .get(async (req, res) => {
      const target = pathTarget(req.params.suppression);
      const accountId = accountOf(res);
      const found =
        'id' in target ? await lookups.byId(accountId, target.id) : await lookups.byEmail(accountId, target.email);
      if (!found) throw new AppError('not_found');
      res.json(toResource(found) satisfies SuppressionResource);
    })
    .delete(async (req, res) => {
      const target = pathTarget(req.params.suppression);
      const { accountId, keyId } = callerOf(res);
      const [id] = await removeSuppressions(
        db,
        accountId,
        'id' in target ? { ids: [target.id] } : { emails: [target.email] },
        keyId,
      );
      if (id === undefined) throw new AppError('not_found');
      res.json({ object: 'suppression', id, deleted: true } satisfies RemovalResult);
    })
    .all(methodNotAllowed('GET', 'DELETE'));

  // An address's audit trail: kept after its entry is removed, so `{suppression}` may name a gone entry.
  route('/:suppression/events')
    .get(async (req, res) => {
      const target = pathTarget(req.params.suppression);
      const query = parseInput(historyQuerySchema, req.query);
      const accountId = accountOf(res);
      const email = await historyAddress(db, accountId, target);
      if (email === null) throw new AppError('not_found');
      try {
        const page = await listHistory(db, accountId, email, query);
        res.json({
          object: 'list',
          has_more: page.hasMore,
          data: page.records.map(toAuditRecordResource),
        } satisfies AuditRecordPage);
      } catch (error) {
        if (error instanceof UnknownCursorError)
          throw invalidField(error.parameter, "is not an event of this address's history.");
        throw error;
      }
    })
    .all(methodNotAllowed('GET'));

  route('/')
    .get(async (req, res) => {
      const { created_after, created_before, ...query } = parseInput(listQuerySchema, req.query);
      const page = await listSuppressions(db, {
        accountId: accountOf(res),
        ...query,
        createdAfter: created_after,
        createdBefore: created_before,
      });
      res.json({
        object: 'list',
        has_more: page.hasMore,
        data: page.entries.map(toResource),
      } satisfies SuppressionPage);
    })
    .post(async (req, res) => {
      const body = parseInput(addBodySchema, req.body);
      const email = requireEmail(body.email, 'email');
      const [added] = await addSuppressions(db, accountOf(res), [
        { id: newId(), email, origin: 'manual', sourceId: null },
      ]);
      // One entry in, one out: the statement answers for every address it is given.
      if (!added) throw new AppError('service_unavailable');
      res.status(201).json({ object: 'suppression', id: added.id } satisfies SuppressionRef);
    })
    .all(methodNotAllowed('GET', 'POST'));

  route('/batch/add')
    .post(async (req, res) => {
      const body = parseInput(batchAddBodySchema, req.body);
      const emails = requireEmails(body.emails, 'emails');
      const added = await addSuppressions(
        db,
        accountOf(res),
        emails.map((email) => ({ id: newId(), email, origin: 'manual' as const, sourceId: null })),
      );
      res.status(201).json({ data: added.map(({ id }) => ({ object: 'suppression', id })) } satisfies BatchAddResult);
    })
    .all(methodNotAllowed('POST'));

  route('/batch/remove')
    .post(async (req, res) => {
      const body = parseInput(batchRemoveBodySchema, req.body);
      const { accountId, keyId } = callerOf(res);
      const target = body.ids
        ? { ids: [...new Set(body.ids)] }
        : { emails: requireEmails(body.emails ?? [], 'emails') };
      const removed = await removeSuppressions(db, accountId, target, keyId);
      res.json({
        data: removed.map((id) => ({ object: 'suppression', id, deleted: true })),
      } satisfies BatchRemoveResult);
    })
    .all(methodNotAllowed('POST'));

  return router;
}
