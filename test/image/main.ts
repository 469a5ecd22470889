/**
 * npm run test:image: builds the Dockerfile's image with podman and runs it against this machine's
 * PostgreSQL and Redis (host network, a database and a queue prefix of its own), the way production
 * runs it: read-only root filesystem with no tmpfs, no capabilities, no new privileges. It checks
 * the image's configuration, that the process runs as a non-root user, that /ready answers 200 in
 * each role (ROLE unset, api and workers; the roles with their credentials read from files), and that
 * `podman stop` (SIGTERM) ends the process with exit status 0 within its grace.
 * One line per check, then
 *
 *   test:image: N passed, M failed
 *
 * and a non-zero exit on any failure. Its containers, database and Redis keys are removed afterwards;
 * the image is kept (as localhost/suppression-list-service:test), so a second run builds from cache.
 *
 * Without Docker Hub, the base image is a local stand-in for node:20-bookworm-slim built once from
 * the machine's Debian mirror and its own Node.js (`service-base.ts`, on the Debian base of
 * `debian-base.ts`; needs root and debootstrap); NODE_IMAGE=<image> uses that image instead. The build gets the machine's npm registry, proxy and
 * CA bundle as build secrets. DATABASE_URL and REDIS_URL name the servers (default: 127.0.0.1).
 *
 * A program rather than a vitest file: it needs podman, root and minutes, so `npm test` leaves it out.
 *
 * This file runs the steps in order; each lives beside it: `podman.ts` (how podman runs here),
 * `service-base.ts` (with `debian-base.ts` and `stand-ins.ts`), `image-build.ts` (the build and the image's configuration), `stores.ts` (the
 * run's database and Redis prefix), `scenarios.ts` (the image in each role, with `containers.ts`
 * to look inside one), `results.ts` (the lines and the tally) and `interruption.ts` (stopping on a
 * signal without leaving anything behind).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CleanupStack } from '../../bench/common/cleanup.js';
import { buildImage, IMAGE } from './image-build.js';
import { interruption, stopAtNextStepOnSignals, stopIfInterrupted } from './interruption.js';
import { run } from './podman.js';
import { Results } from './results.js';
import { runScenarios } from './scenarios.js';
import { prepareServiceBase } from './service-base.js';
import { runStores, storesAnswer } from './stores.js';

async function main(): Promise<number> {
  const results = new Results();
  const cleanup = new CleanupStack();
  const runId = randomBytes(4).toString('hex');
  const work = await mkdtemp(join(tmpdir(), 'sl-image-test-'));
  cleanup.push('remove the scratch directory', () => rm(work, { recursive: true, force: true }));
  // Beside the scratch directory, which goes: kept when something failed, for its reason.
  const logFile = join(tmpdir(), `sl-image-test-${runId}.log`);
  stopAtNextStepOnSignals();
  try {
    const version = await run('podman', ['--version']);
    if (!results.check(`podman is installed (${version.stdout.trim()})`, version.code === 0 ? undefined : 'not found'))
      return 1;
    if (!results.check('PostgreSQL and Redis answer', await storesAnswer())) return 1;

    const base = await prepareServiceBase(results, logFile);
    if (base === undefined) return 1;
    const { p, baseImage } = base;
    if (!(await buildImage(p, results, { baseImage, work, logFile, tag: IMAGE }))) return 1;

    stopIfInterrupted();
    const stores = await runStores(runId, cleanup);
    await runScenarios({ p, results, cleanup, stores, runId }, work);
    return results.failed > 0 ? 1 : 0;
  } finally {
    const failures = await cleanup.runAll();
    const interruptedBy = interruption();
    if (interruptedBy !== undefined) results.fail('the run', `interrupted by ${interruptedBy}`);
    for (const failure of failures) results.fail('clean-up', failure);
    if (results.failed === 0) await rm(logFile, { force: true });
    else if (existsSync(logFile)) console.log(`the build's output: ${logFile}`);
    console.log(`test:image: ${results.passed} passed, ${results.failed} failed`);
    if (failures.length > 0) process.exitCode = 1;
  }
}

main().then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (interruption() === undefined) console.error(error);
    process.exitCode = interruption() === undefined ? 1 : 130;
  },
);
