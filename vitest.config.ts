import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The service compiled once (in the background) for the tests that run its built entry points,
    // the database template, and the console built once for the browser tests.
    globalSetup: ['test/support/shared-build.ts', 'test/support/global-setup.ts', 'test/support/build-console.ts'],
    // Command-line tests start several CLI processes each; with every file running side by side
    // on two cores, one can take well over 20 s.
    testTimeout: 45_000,
    hookTimeout: 120_000,
    // Each file has its own database and queue prefix, so files run side by side.
    fileParallelism: true,
    // A file spends most of its time waiting on PostgreSQL, Redis, child processes and the browser,
    // so more files than cores run at once; vitest's default (cores - 1) runs them one at a time on
    // two cores.
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
