#!/usr/bin/env node
import { reclassifyCommand } from './commands/reclassify.js';
import { Command } from 'commander';
import { runMain } from '../src/runtime.js';
import { eventsCommand } from './commands/events.js';
import { importCommand, removeCommand } from './commands/import.js';
import { exportCommand } from './commands/export.js';
import { feedsCommand } from './commands/feeds.js';
import { keysCommand } from './commands/keys.js';
import { migrateCommand } from './commands/migrate.js';
import { settingsCommand } from './commands/settings.js';
import { startCommand } from './commands/start.js';
import { webhooksCommand } from './commands/webhooks.js';
import { allowlistCommand } from './commands/allowlist.js';

const program = new Command('suppression-list')
  .description('Suppression list service: run it, and manage its keys and data')
  .addCommand(startCommand())
  .addCommand(migrateCommand())
  .addCommand(keysCommand())
  .addCommand(feedsCommand())
  .addCommand(webhooksCommand())
  .addCommand(settingsCommand())
  .addCommand(allowlistCommand())
  .addCommand(eventsCommand())
  .addCommand(importCommand())
  .addCommand(removeCommand())
  .addCommand(exportCommand())
  .addCommand(reclassifyCommand());

runMain(async () => {
  await program.parseAsync(process.argv);
});
