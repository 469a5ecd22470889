import { Command } from 'commander';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { createLogger } from '../../src/logger.js';
import type { CliContext } from '../cli-context.js';

export function migrateCommand(context: CliContext): Command {
  return new Command('migrate').description('apply pending database migrations').action(async () => {
    const config = loadConfig(context.env);
    const applied = await migrate(config.DATABASE_URL, createLogger(config.LOG_LEVEL, context.stderr));
    context.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
  });
}
