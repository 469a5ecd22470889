/**
 * npm run podman:start: podman's Docker-compatible API on /run/podman/podman.sock, configured to
 * run containers on this kind of machine (`podman-service.ts`), with the healthcheck runner beside
 * it, then the variables that point Testcontainers at it. Idempotent: what runs already is kept.
 * `npm run images:local` runs it first.
 */
import { startPodmanService, TESTCONTAINERS_ENV } from './podman-service.js';

try {
  for (const line of await startPodmanService()) console.log(line);
  console.log('\nFor Testcontainers (npm run test:containers sets these itself):');
  for (const [name, value] of Object.entries(TESTCONTAINERS_ENV)) console.log(`  export ${name}=${value}`);
} catch (error) {
  console.error(`podman:start: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
