import type { Readable } from 'node:stream';
import { Command, CommanderError } from 'commander';
import type { CliContext, CliOutput } from './cli-context.js';

type CommandMaker = (context: CliContext) => Promise<Command>;

/**
 * Each command by name, loaded only when it runs: a command's modules (the API's for `start`, the
 * queues' for `events`) take most of a run's start, and one command needs none of the others'.
 */
const COMMANDS: Record<string, CommandMaker> = {
  start: async (context) => (await import('./commands/start.js')).startCommand(context),
  migrate: async (context) => (await import('./commands/migrate.js')).migrateCommand(context),
  keys: async (context) => (await import('./commands/keys.js')).keysCommand(context),
  feeds: async (context) => (await import('./commands/feeds.js')).feedsCommand(context),
  webhooks: async (context) => (await import('./commands/webhooks.js')).webhooksCommand(context),
  settings: async (context) => (await import('./commands/settings.js')).settingsCommand(context),
  allowlist: async (context) => (await import('./commands/allowlist.js')).allowlistCommand(context),
  'return-paths': async (context) => (await import('./commands/return-paths.js')).returnPathsCommand(context),
  mail: async (context) => (await import('./commands/mail.js')).mailCommand(context),
  events: async (context) => (await import('./commands/events.js')).eventsCommand(context),
  import: async (context) => (await import('./commands/import.js')).importCommand(context),
  remove: async (context) => (await import('./commands/import.js')).removeCommand(context),
  export: async (context) => (await import('./commands/export.js')).exportCommand(context),
  reclassify: async (context) => (await import('./commands/reclassify.js')).reclassifyCommand(context),
};

export interface CliIo {
  /** The arguments after the program's name, as a shell passes them. */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  stdin: Readable;
  stdout: CliOutput;
  stderr: CliOutput;
}

/** The command the arguments name, or every command (for the help, or to say which is unknown). */
function commandsFor(argv: readonly string[]): string[] {
  const named = argv[0];
  return named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
}

/**
 * Gives every command below `command` its settings (where commander writes, and that it throws
 * rather than exits): commander copies them to the commands `.command()` makes, not to those
 * added with `.addCommand()`.
 */
function shareSettings(command: Command): void {
  for (const sub of command.commands) {
    sub.copyInheritedSettings(command);
    shareSettings(sub);
  }
}

/**
 * Runs one command line with the given arguments, environment and streams, and resolves with its
 * exit code; it never exits the process, and a failure is one line on stderr, `error: <why>`. What
 * a command opens it closes before this resolves, but for `start`, which serves until a signal.
 */
export async function runCli(io: CliIo): Promise<number> {
  const context: CliContext = { env: io.env, stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, exitCode: 0 };
  const program = new Command('suppression-list')
    .description('Suppression list service: run it, and manage its keys and data')
    // Commander's own messages (a missing option, --help) go to the given streams, and its exits
    // become a CommanderError that carries the exit code.
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .exitOverride();
  try {
    for (const name of commandsFor(io.argv)) program.addCommand(await (COMMANDS[name] as CommandMaker)(context));
    shareSettings(program);
    await program.parseAsync([...io.argv], { from: 'user' });
    return context.exitCode;
  } catch (error) {
    // Commander has written its own message.
    if (error instanceof CommanderError) return error.exitCode;
    io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
