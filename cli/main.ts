#!/usr/bin/env node
import { Command } from 'commander';
import { runMain } from '../src/runtime.js';

/**
 * Each command by name, loaded only when it runs: a command's modules (the API's for `start`, the
 * queues' for `events`) take most of a run's start, and one command needs none of the others'.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  start: async () => (await import('./commands/start.js')).startCommand(),
  migrate: async () => (await import('./commands/migrate.js')).migrateCommand(),
  keys: async () => (await import('./commands/keys.js')).keysCommand(),
  feeds: async () => (await import('./commands/feeds.js')).feedsCommand(),
  webhooks: async () => (await import('./commands/webhooks.js')).webhooksCommand(),
  settings: async () => (await import('./commands/settings.js')).settingsCommand(),
  allowlist: async () => (await import('./commands/allowlist.js')).allowlistCommand(),
  'return-paths': async () => (await import('./commands/return-paths.js')).returnPathsCommand(),
  mail: async () => (await import('./commands/mail.js')).mailCommand(),
  events: async () => (await import('./commands/events.js')).eventsCommand(),
  import: async () => (await import('./commands/import.js')).importCommand(),
  remove: async () => (await import('./commands/import.js')).removeCommand(),
  export: async () => (await import('./commands/export.js')).exportCommand(),
  reclassify: async () => (await import('./commands/reclassify.js')).reclassifyCommand(),
};

/** The command the arguments name, or every command (for the help, or to say which is unknown). */
function commandsFor(argv: readonly string[]): string[] {
  const named = argv[2];
  return named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
}

runMain(async () => {
  const program = new Command('suppression-list').description(
    'Suppression list service: run it, and manage its keys and data',
  );
  for (const name of commandsFor(process.argv)) program.addCommand(await (COMMANDS[name] as () => Promise<Command>)());
  await program.parseAsync(process.argv);
});
