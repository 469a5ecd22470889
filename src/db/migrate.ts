import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { Logger } from '../logger.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
// Our own lock id, so this service never waits on another application's node-pg-migrate run.
const MIGRATION_LOCK_ID = 7_300_111_202_611;

/**
 * Applies pending migrations (numbered SQL files), each in its own transaction, under an advisory
 * lock, with the ledger in `pgmigrations`. Several processes starting at once wait for each other.
 * One transaction per migration lets a migration take a lock and release it before the next one
 * scans under a lighter lock (0016 and 0017).
 */
export async function migrate(databaseUrl: string, logger: Logger): Promise<string[]> {
  const applied = await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    migrationsTable: 'pgmigrations',
    direction: 'up',
    singleTransaction: false,
    lockValue: MIGRATION_LOCK_ID,
    advisoryLockMode: 'wait',
    checkOrder: true,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message: string) => logger.warn(message),
      error: (message: string) => logger.error(message),
    },
  });
  return applied.map((migration) => migration.name);
}
