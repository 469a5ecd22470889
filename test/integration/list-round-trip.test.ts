import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ExportFormat } from '../../src/export/export-formats.js';
import { runList } from '../../cli/lists/run-list.js';
import type { Account } from '../../src/accounts/account-repository.js';
import { newAccount } from '../support/accounts.js';
import { exportText } from '../support/export-text.js';
import { streamSuppressions } from '../../src/export/suppression-export.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import { GIVEN_ORIGINS as ORIGINS, type GivenOrigin as Origin } from '../../src/domain/origins.js';
import { uniqueEmails } from '../support/emails.js';
import { useBatchWorker } from '../support/test-batch-worker.js';
import { textCollector } from '../support/text-collector.js';

const setup = useBatchWorker();

/** What `import - --account <a> --origin o --format f --wait` does with that text. */
async function importText(account: Account, text: string, format: ExportFormat, origin: Origin): Promise<void> {
  const report = await runList(
    { operation: 'add', account, origin, input: Readable.from([text]), format, wait: true },
    {
      redis: { url: setup.batches.redisUrl },
      prefix: setup.batches.prefix,
      stdout: textCollector().stream,
      stderr: textCollector().stream,
      tty: false,
    },
  );
  expect(report.exitCode).toBe(0);
  expect(report.totals?.failed).toEqual([]);
}

/** The content of a list, without what is the list's own (ids and times). */
async function contentOf(account: Account): Promise<string[]> {
  const rows: string[] = [];
  for await (const entry of streamSuppressions(setup.database.db, { accountId: account.id }))
    rows.push(`${entry.origin} ${entry.email}`);
  return rows.sort();
}

describe('export, then import into another account', () => {
  it.each(['csv', 'ndjson'] as const)(
    'when a mixed list goes out as %s and back in origin by origin, then the content is identical',
    async (format) => {
      const { account: source } = await newAccount(setup.database.db);
      const { account: target } = await newAccount(setup.database.db);
      const emails = uniqueEmails(2400);
      await addSuppressions(
        setup.database.db,
        source.id,
        emails.map((email, index) => {
          const origin = ORIGINS[index % 3] as Origin;
          return { id: newId(), email, origin, sourceId: origin === 'manual' ? null : randomUUID() };
        }),
      );
      for (const origin of ORIGINS) {
        const { text } = await exportText(setup.database.db, source.id, format, { origin });
        await importText(target, text, format, origin);
      }

      const expected = await contentOf(source);
      expect(expected).toHaveLength(2400);
      expect(await contentOf(target)).toEqual(expected);
    },
  );
});
