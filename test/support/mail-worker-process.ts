import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The event and mail workers as a process of their own, to be killed with SIGKILL mid-job. */
export interface MailWorkerProcess {
  child: ChildProcess;
  kill(): Promise<void>;
}

export interface MailWorkerProcessOptions {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  /** The workers' settings (BOUNCE_DOMAINS, MAIL_UNSIGNED_DOMAINS, ...). */
  env: Record<string, string>;
  /** How soon a job of a killed process is taken up again. */
  lockDurationMs: number;
}

const ENTRY = fileURLToPath(new URL('./mail-worker-entry.ts', import.meta.url));

/** Starts the real event and mail workers in a child process and resolves once they take jobs. */
export async function startMailWorkerProcess(options: MailWorkerProcessOptions): Promise<MailWorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  await Promise.race([
    new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('ready')) resolve();
      });
    }),
    once(child, 'exit').then(() => {
      throw new Error('the worker process exited before it was ready');
    }),
  ]);
  return {
    child,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
