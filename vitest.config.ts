import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The database template, and the console built once for the browser tests.
    globalSetup: ['test/support/global-setup.ts', 'test/support/build-console.ts'],
    // Command-line tests start several `tsx` processes each; with every file running side by side
    // on two cores, one can take well over 20 s.
    testTimeout: 45_000,
    hookTimeout: 120_000,
    // Each file has its own database and queue prefix, so files run side by side.
    fileParallelism: true,
  },
});
