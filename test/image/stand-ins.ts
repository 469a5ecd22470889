import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEBIAN_BASE_IMAGE, step } from './debian-base.js';
import { podman, type Podman } from './podman.js';

const RECIPES = fileURLToPath(new URL('./stand-ins/', import.meta.url));
const RECIPE_LABEL = 'stand-in.recipe';

/**
 * A local image that stands in for an official one from Docker Hub, built on the Debian base from
 * `stand-ins/<recipe>/` (a Containerfile and the files it copies). It takes the official image's name
 * under `localhost/`, which podman, and Testcontainers through podman's socket, find for the short
 * name (`postgres:15-alpine`) when no registry is reachable.
 */
export interface StandIn {
  image: string;
  recipe: string;
  /** For the lines printed: what it is built from. */
  from: string;
  buildArgs?: Record<string, string>;
  /** Files of this machine the build context also needs: name in the context → path here. */
  contextFiles?: Record<string, string>;
}

/** The stand-in for node:20-bookworm-slim, the service image's base: this machine's Node.js and npm. */
export const NODE_STAND_IN: StandIn = {
  image: 'localhost/node:20-bookworm-slim-local',
  recipe: 'node',
  from: `this machine's Node.js ${process.version}`,
  buildArgs: { NODE_VERSION: process.version.slice(1) },
  contextFiles: {
    node: process.execPath,
    npm: dirname(dirname(realpathSync(join(dirname(process.execPath), 'npm')))),
  },
};

export const POSTGRES_STAND_IN: StandIn = {
  image: 'localhost/postgres:15-alpine',
  recipe: 'postgres',
  from: "Debian's postgresql-15",
};

export const REDIS_STAND_IN: StandIn = {
  image: 'localhost/redis:7-alpine',
  recipe: 'redis',
  from: "Debian's redis-server 7.0",
};

export async function imageId(p: Podman, image: string): Promise<string> {
  return (await podman(p, ['image', 'inspect', '--format', '{{.Id}}', image])).stdout.trim();
}

/** What the image is made of: its recipe's files, its build arguments and the base; a change rebuilds it. */
async function recipeHash(standIn: StandIn): Promise<string> {
  const hash = createHash('sha256');
  const dir = join(RECIPES, standIn.recipe);
  for (const name of (await readdir(dir)).sort()) hash.update(name).update(await readFile(join(dir, name)));
  hash.update(JSON.stringify(standIn.buildArgs ?? {})).update(DEBIAN_BASE_IMAGE);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds `standIn` on the Debian base unless an image of the same recipe is there already. Returns
 * what happened, in words.
 */
export async function ensureStandIn(p: Podman, standIn: StandIn, logFile: string): Promise<string> {
  const recipe = await recipeHash(standIn);
  const existing = await podman(p, [
    'image',
    'inspect',
    '--format',
    `{{index .Labels "${RECIPE_LABEL}"}}`,
    standIn.image,
  ]);
  if (existing.code === 0 && existing.stdout.trim() === recipe) {
    return `${standIn.image} (${standIn.from}) kept from an earlier run`;
  }
  const previous = existing.code === 0 ? await imageId(p, standIn.image) : '';
  const context = await mkdtemp('/var/tmp/sl-stand-in-');
  try {
    await cp(join(RECIPES, standIn.recipe), context, { recursive: true });
    for (const [name, path] of Object.entries(standIn.contextFiles ?? {})) {
      await cp(path, join(context, name), { recursive: true, dereference: true });
    }
    const buildArgs = Object.entries({ BASE: DEBIAN_BASE_IMAGE, ...standIn.buildArgs }).flatMap(([name, value]) => [
      '--build-arg',
      `${name}=${value}`,
    ]);
    await step(
      `podman build ${standIn.image}`,
      podman(
        p,
        [
          'build',
          '--format',
          'docker',
          '--network=host',
          ...p.limits,
          ...buildArgs,
          '--label',
          `${RECIPE_LABEL}=${recipe}`,
          '--tag',
          standIn.image,
          '--file',
          join(context, 'Containerfile'),
          context,
        ],
        { logFile, timeoutMs: 20 * 60_000 },
      ),
    );
  } finally {
    await rm(context, { recursive: true, force: true });
  }
  // The image this one replaces would stay behind, untagged.
  if (previous !== '' && previous !== (await imageId(p, standIn.image))) await podman(p, ['rmi', previous]);
  return `${standIn.image} built: ${standIn.from}, on ${DEBIAN_BASE_IMAGE}`;
}
