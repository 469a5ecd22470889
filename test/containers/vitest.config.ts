import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { PODMAN_SOCKET, TESTCONTAINERS_ENV } from '../image/podman-service.js';

// npm run test:containers: the tests that start containers (test/containers/, `*.spec.ts`, which the
// default `npm test` does not pick up), and the harness's own path through Testcontainers: with
// DATABASE_URL and REDIS_URL unset, global-setup starts PostgreSQL and Redis in containers, and two
// integration files of the default suite run against them.
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;
// podman's socket when no other runtime is named (`npm run podman:start`).
if (process.env.DOCKER_HOST === undefined && existsSync(PODMAN_SOCKET)) Object.assign(process.env, TESTCONTAINERS_ENV);

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: [
      'test/containers/**/*.spec.ts',
      'test/integration/event-worker.test.ts',
      'test/integration/suppressions-api.test.ts',
    ],
    // The runtime, the images and the build the jest example requires are checked first, with the
    // command that provides each; then the harness's PostgreSQL and Redis.
    globalSetup: ['test/containers/preflight.ts', 'test/support/global-setup.ts'],
    // A container's start is seconds of a two-core machine's time, more with other files beside it.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
    isolate: false,
  },
});
