import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The console, built once for the run, for the apps of the browser tests to serve. */
    consoleDir: string;
  }
}

const CONFIG = fileURLToPath(new URL('../../console/vite.config.ts', import.meta.url));

/** Builds the console as `npm run build` does, into a directory of the run's own (about a second). */
export default async function buildConsole(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sl-console-'));
  await build({ configFile: CONFIG, logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  project.provide('consoleDir', dir);
  return () => rm(dir, { recursive: true, force: true });
}
