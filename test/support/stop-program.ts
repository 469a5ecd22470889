import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';

/** Stops a program a test started (SIGTERM, then waits for its exit) and removes its scratch directory. */
export async function stopProgram(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
}
