import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { captureLogs } from '../support/log-capture.js';
import { eventually } from '../support/test-queue.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();

describe('an idle database connection that is cut', () => {
  it('when the server ends an idle connection of a pool, then one warning says so and holds neither the password nor the connection', async () => {
    const { logger, lines } = captureLogs('warn');
    const url = new URL(database.url);
    url.password = 'pool-password-9f3k';
    const db = createDatabase({ url: url.toString(), logger, applicationName: 'connection-loss-test' });
    try {
      await db.query({ text: 'SELECT 1' });
      await database.db.query({
        text: `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'connection-loss-test'`,
      });

      await eventually(() => Promise.resolve(lines.length > 0), 5000, 'the warning');
      const [line] = lines;
      const record = JSON.parse(line ?? '{}') as { msg: string; err: Record<string, unknown> };
      expect(record.msg).toBe('idle database connection failed');
      expect(record.err).toMatchObject({
        message: 'terminating connection due to administrator command',
        code: '57P01',
      });
      expect(line).not.toContain('pool-password-9f3k');
      expect(line).not.toContain('connectionParameters');
      expect((await db.query<{ one: number }>({ text: 'SELECT 1 AS one' })).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
