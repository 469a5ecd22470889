import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { compileService } from './built-service.js';
import { sleep } from './sleep.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The service compiled once for the run; ready once `.ready` is in it (see `sharedBuild`). */
    builtServiceDir: string;
  }
}

const READY = '.ready';
const FAILED = '.failed';
const WAIT_MS = 120_000;

/**
 * Compiles the service once for the run, in the background: the first test files run meanwhile,
 * and only a test that runs the built service (the CLI's, the multi-process one) waits for it.
 * Running `node cli/main.js` of the build takes about half the time of `npx tsx cli/main.ts`.
 */
export default async function buildServiceOnce(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sl-built-'));
  const building = compileService(dir, { typeCheck: false }).then(
    () => writeFile(path.join(dir, READY), ''),
    (error: unknown) => writeFile(path.join(dir, FAILED), error instanceof Error ? error.message : String(error)),
  );
  project.provide('builtServiceDir', dir);
  return async () => {
    await building;
    await rm(dir, { recursive: true, force: true });
  };
}

/** The directory of the run's compiled service, once it is compiled. */
export async function sharedBuild(): Promise<string> {
  const dir = inject('builtServiceDir');
  for (let waited = 0; waited < WAIT_MS; waited += 50) {
    if (existsSync(path.join(dir, READY))) return dir;
    if (existsSync(path.join(dir, FAILED))) {
      throw new Error(`the service did not compile: ${await readFile(path.join(dir, FAILED), 'utf8')}`);
    }
    await sleep(50);
  }
  throw new Error(`the service was not compiled within ${WAIT_MS / 1000} s`);
}
