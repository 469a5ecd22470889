import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProcess {
  pid: number;
  /** SIGKILL: the process ends wherever it is, its jobs held until their locks run out. */
  kill(): Promise<void>;
  /** SIGTERM, for the end of the run: it finishes its jobs and exits. */
  stop(): Promise<void>;
}

async function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/**
 * The service's worker program (`workers/main.ts`, as `npm run start:worker` runs it built) in a
 * process of its own with `env`, resolved once it says its workers run. Its log (one line a message
 * at `info`, as in production) is read and dropped, so that a full pipe never stalls it.
 */
export async function startWorkerProcess(env: Record<string, string>, startTimeoutMs = 30_000): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'workers/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = `${errors}${chunk.toString('utf8')}`.slice(-10_000)));
  let pending = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the worker process did not start within ${startTimeoutMs} ms:\n${errors}`)),
      startTimeoutMs,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      pending = `${pending}${chunk.toString('utf8')}`;
      if (/"msg":"[^"]*workers running"/.test(pending)) {
        clearTimeout(timer);
        resolve();
      }
      pending = pending.slice(pending.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the worker process exited (${signal ?? code}) before it was ready:\n${errors}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    await ended(child, 'SIGKILL');
    throw error;
  }
  return { pid: child.pid as number, kill: () => ended(child, 'SIGKILL'), stop: () => ended(child, 'SIGTERM') };
}
