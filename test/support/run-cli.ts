import { spawn } from 'node:child_process';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Close stdout once a first line arrived, as `| head -1` does: the reader goes away while the writer still has plenty to write. */
  closeAfterFirstLine?: boolean;
}

/** Runs the real CLI with extra environment and stdin; resolves when it exits (by itself: nothing may keep it open). */
export function runCli(
  args: string[],
  env: Record<string, string>,
  stdin = '',
  options: CliRunOptions = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'cli/main.ts', ...args], {
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
