import { streamSuppressions } from '../../src/export/suppression-export.js';
import { writeExport } from '../../src/export/write-export.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { parseInput } from '../http/validation.js';
import { exampleSuppression } from '../openapi/examples.js';
import { rateLimitHeaders } from '../openapi/headers.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../openapi/responses.js';
import type { SuppressionsDeps } from './deps.js';
import { exportQuerySchema } from './schemas.js';

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

/** The whole list as a file, streamed from a server-side cursor in constant memory; one request of the rate limit however long it runs. */
export const exportEndpoint: Endpoint<SuppressionsDeps> = {
  method: 'get',
  path: '/export',
  access: 'full',
  doc: {
    operationId: 'exportSuppressions',
    tags: ['Suppressions'],
    summary: 'Export the list as a file',
    description:
      "Every entry (or every entry of one origin, of one named scope, or both), newest first, streamed from a database cursor in constant memory, as `Content-Disposition: attachment`. One request of the rate limit however long it runs. A failure after the first bytes cuts the connection rather than ending the body. The CSV holds every value exactly as stored unless `escape_formulas=true` asks for a file safe to open in a spreadsheet: a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is then prefixed with `'` and quoted (OWASP's advice against CSV injection).",
    request: { query: exportQuerySchema },
    responses: {
      200: {
        description: 'The file: CSV with a header line, or NDJSON.',
        headers: rateLimitHeaders,
        content: {
          'text/csv': {
            schema: { type: 'string' },
            example: `id,email,origin,source_id,created_at,scope\n${exampleSuppression.id},${exampleSuppression.email},${exampleSuppression.origin},${exampleSuppression.source_id ?? ''},${exampleSuppression.created_at},${exampleSuppression.scope ?? ''}\n`,
          },
          'application/x-ndjson': {
            schema: { type: 'string' },
            example: `${JSON.stringify(exampleSuppression)}\n`,
          },
        },
      },
      ...errorResponses(...AUTHENTICATED_ERRORS),
    },
  },
  handler:
    ({ reads }) =>
    async (req, res) => {
      const query = parseInput(exportQuerySchema, req.query);
      const accountId = accountOf(res);
      // Read before anything is sent, so a database that cannot be reached still answers 503 in JSON,
      // and a replica that cannot is replaced by the primary.
      const { entries, first } = await reads.forAccount(accountId, async (db) => {
        const stream = streamSuppressions(db, { accountId, origin: query.origin, scope: query.scope });
        return { entries: stream, first: await stream.next() };
      });
      // attachment() sets a type from the file name; the exact type, with its charset, comes after it.
      res
        .status(200)
        .attachment(`suppressions.${query.format}`)
        .type(query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
      try {
        await writeExport(startingWith(first, entries), res, query.format, {
          escapeFormulas: query.escape_formulas === true,
        });
      } catch {
        // Half a file has been sent: cutting the connection, rather than ending the body, tells the
        // client it is incomplete.
        res.destroy();
      }
    },
};
