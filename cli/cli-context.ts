import { Console } from 'node:console';
import type { Readable, Writable } from 'node:stream';

/** Where a command writes; a terminal says so (`isTTY`), for progress bars. */
export type CliOutput = Writable & { isTTY?: boolean };

/**
 * What a command reads and writes, and how it ends: the process's own when the CLI runs as a
 * program, a caller's when it runs inside another process (the tests'), so that a command leaves
 * nothing of its own behind in the process it ran in.
 */
export interface CliContext {
  /** What the configuration is read from. */
  env: NodeJS.ProcessEnv;
  /** Read by the commands that take `-` for standard input. */
  stdin: Readable;
  /** The command's output alone. */
  stdout: CliOutput;
  /** Logs, progress and errors. */
  stderr: CliOutput;
  /** 1 once a command that runs to its end has something to report: an invalid line, a failed job. */
  exitCode: number;
}

/** Rows as console.table prints them, on the command's stdout. */
export function printTable(context: CliContext, rows: readonly object[]): void {
  new Console({ stdout: context.stdout, stderr: context.stderr }).table(rows);
}
