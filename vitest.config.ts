import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The service compiled once (in the background) for the tests that run its built entry points,
    // the database template, and the console built once for the browser tests.
    globalSetup: ['test/support/shared-build.ts', 'test/support/global-setup.ts', 'test/support/build-console.ts'],
    // The files that start programs (the built service, a PostgreSQL replica, Chromium) run side by
    // side on two cores, where one test can take well over 20 s.
    testTimeout: 45_000,
    hookTimeout: 120_000,
    // Each file has its own database and queue prefix, so files run side by side.
    fileParallelism: true,
    // A worker process runs file after file and keeps the modules it has loaded: the app's graph
    // (Express, BullMQ, zod, the OpenAPI document) is loaded once per worker rather than once per
    // file, which took about 1.5 s of CPU per file and, with a process started per file, two fifths
    // of the suite's. Safe because no file mocks a module or changes shared state without putting it
    // back: a file that needs `vi.mock` must not be added without isolating it again.
    isolate: false,
    // A file spends most of its time waiting on PostgreSQL, Redis, child processes and the browser,
    // so more files than cores run at once; vitest's default (cores - 1) runs them one at a time on
    // two cores.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // The longest files first (by what they start), so that none is left running alone at the end.
    sequence: { sequencer: LongestFirst },
  },
});
