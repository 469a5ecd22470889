/**
 * npm run images:local: what `npm run test:containers` and SuppressionListContainer need on a machine
 * that reaches no registry but Debian's and npm's. It starts podman's API (`podman-start.ts`), then
 * builds, each once and kept until its recipe changes:
 *
 *   localhost/debian:bookworm-minbase-local   debootstrap's minbase from the machine's Debian mirror
 *   localhost/node:20-bookworm-slim-local     the service image's base: this machine's Node.js
 *   localhost/postgres:15-alpine              Debian's postgresql-15, as the official image runs it
 *   localhost/redis:7-alpine                  Debian's redis-server, as the official image runs it
 *   localhost/suppression-list-service:latest the Dockerfile's image, from this checkout
 *
 * The stand-ins take the official images' names under `localhost/`, where podman finds the short
 * names Testcontainers asks for. The service image is built again (from cache when nothing
 * changed) on every run, so a change to the service reaches the containers' tests. Needs root,
 * podman and debootstrap; about ten minutes the first time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDebianBase } from './debian-base.js';
import { buildImage, LOCAL_IMAGE } from './image-build.js';
import { startPodmanService } from './podman-service.js';
import { Results } from './results.js';
import { prepareServiceBase } from './service-base.js';
import { ensureStandIn, POSTGRES_STAND_IN, REDIS_STAND_IN } from './stand-ins.js';

async function main(results: Results, work: string, logFile: string): Promise<void> {
  for (const line of await startPodmanService()) results.ok(line);
  const base = await prepareServiceBase(results, logFile);
  if (base === undefined) return;
  await ensureDebianBase([], logFile);
  for (const standIn of [POSTGRES_STAND_IN, REDIS_STAND_IN]) {
    try {
      results.ok(await ensureStandIn(base.p, standIn, logFile));
    } catch (error) {
      results.fail(standIn.image, `${error instanceof Error ? error.message : String(error)} (log: ${logFile})`);
    }
  }
  await buildImage(base.p, results, { ...base, work, logFile, tag: LOCAL_IMAGE });
}

const results = new Results();
const work = await mkdtemp(join(tmpdir(), 'sl-images-local-'));
const logFile = join(work, 'build.log');
try {
  await main(results, work, logFile);
} catch (error) {
  results.fail('images:local', error instanceof Error ? error.message : String(error));
} finally {
  if (results.failed === 0) await rm(work, { recursive: true, force: true });
  else console.log(`the builds' output: ${logFile}`);
  console.log(`images:local: ${results.passed} passed, ${results.failed} failed`);
  if (results.failed > 0) process.exitCode = 1;
}
