import { spawn } from 'node:child_process';
import path from 'node:path';
import { sharedBuild } from './shared-build.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Close stdout once a first line arrived, as `| head -1` does: the reader goes away while the writer still has plenty to write. */
  closeAfterFirstLine?: boolean;
}

/**
 * Runs the real CLI, compiled as `npm run build` compiles it, with extra environment and stdin;
 * resolves when it exits (by itself: nothing may keep it open). The compiled entry starts in about
 * half the time of `npx tsx cli/main.ts`, which starts three Node processes where this starts one.
 */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  stdin = '',
  options: CliRunOptions = {},
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
