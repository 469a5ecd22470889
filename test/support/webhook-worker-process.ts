import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The webhook worker as a process of its own, to be killed with SIGKILL mid-delivery. */
export interface WorkerProcess {
  child: ChildProcess;
  kill(): Promise<void>;
}

export interface WorkerProcessOptions {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  lockDurationMs: number;
}

const ENTRY = fileURLToPath(new URL('./webhook-worker-entry.ts', import.meta.url));

/** Starts the real webhook worker in a child process and resolves once it takes jobs. */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await Promise.race([
    new Promise<void>((resolve) => {
      const check = (): void => {
        if (output.includes('ready')) resolve();
      };
      child.stdout.on('data', check);
    }),
    once(child, 'exit').then(() => {
      throw new Error('the worker process exited before it was ready');
    }),
  ]);
  return {
    child,
    async kill() {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
