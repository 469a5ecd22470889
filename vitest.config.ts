import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // Each file has its own database and queue prefix, so files run side by side.
    fileParallelism: true,
  },
});
