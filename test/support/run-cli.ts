import { spawn } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runCli as runCommandLine } from '../../cli/run-cli.js';
import { sharedBuild } from './shared-build.js';
import { textCollector } from './text-collector.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliSpawnOptions {
  /** Close stdout once a first line arrived, as `| head -1` does: the reader goes away while the writer still has plenty to write. */
  closeAfterFirstLine?: boolean;
}

/**
 * Runs a command line in this process, as `cli/main.ts` runs it but with the given environment
 * (over this process's) and stdin, and its output collected. The command's modules load once per
 * test worker, where a process of its own spent most of a second loading them for every command.
 */
export async function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<CliRun> {
  const stdout = textCollector();
  const stderr = textCollector();
  const code = await runCommandLine({
    argv: args,
    env: { ...process.env, ...env },
    stdin: Readable.from(stdin === '' ? [] : [Buffer.from(stdin)], { objectMode: false }),
    stdout: stdout.stream,
    stderr: stderr.stream,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * Runs the real CLI, compiled as `npm run build` compiles it, with extra environment and stdin;
 * resolves when it exits (by itself: nothing may keep it open). For what only a process shows: its
 * exit code, its end, a reader that goes away. The compiled entry starts in about half the time of
 * `npx tsx cli/main.ts`, which starts three Node processes where this starts one.
 */
export async function spawnCli(
  args: string[],
  env: Record<string, string>,
  stdin = '',
  options: CliSpawnOptions = {},
): Promise<CliRun> {
  const entry = path.join(await sharedBuild(), 'cli/main.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
      if (options.closeAfterFirstLine && stdout.includes('\n')) child.stdout.destroy();
    });
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
