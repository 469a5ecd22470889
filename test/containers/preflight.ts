import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { getContainerRuntimeClient, ImageName } from 'testcontainers';
import { healthcheckRunnerRuns, PODMAN_SOCKET } from '../image/podman-service.js';
import { DEFAULT_IMAGE, DEFAULT_POSTGRES_IMAGE, DEFAULT_REDIS_IMAGE } from '../../src/testcontainers/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const SETUP = `On a machine without Docker Hub, as root: npm run images:local (it also runs npm run podman:start).
With Docker Hub: docker build -t suppression-list-service . && docker pull postgres:15-alpine && docker pull redis:7-alpine`;

/**
 * What the containers' tests need, each checked before any starts, with the command that provides
 * it: a container runtime, the images, the healthcheck runner when the runtime is podman's socket
 * here, and the CommonJS build the jest example requires.
 */
export default async function preflight(): Promise<void> {
  let client: Awaited<ReturnType<typeof getContainerRuntimeClient>>;
  try {
    client = await getContainerRuntimeClient();
  } catch (error) {
    throw new Error(
      `No container runtime answers (${error instanceof Error ? error.message : String(error)}).\n${SETUP}`,
      { cause: error },
    );
  }
  const images = [DEFAULT_IMAGE, DEFAULT_POSTGRES_IMAGE, DEFAULT_REDIS_IMAGE];
  const present = await Promise.all(images.map((image) => client.image.exists(ImageName.fromString(image))));
  const missing = images.filter((_, index) => !present[index]);
  if (missing.length > 0) throw new Error(`Missing images: ${missing.join(', ')}.\n${SETUP}`);
  if (process.env.DOCKER_HOST === `unix://${PODMAN_SOCKET}` && !healthcheckRunnerRuns()) {
    throw new Error(
      'podman here runs no healthchecks by itself (no systemd), and PostgreSqlContainer waits for one: npm run podman:start runs them.',
    );
  }
  await promisify(execFile)('npm', ['run', 'build:cjs'], { cwd: ROOT });
}
