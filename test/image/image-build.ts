import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastLine, podman, run, type Podman } from './podman.js';
import type { Results } from './results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The tag test:image builds and runs; kept after the run, so a second run builds from cache. */
export const IMAGE = 'localhost/suppression-list-service:test';

/**
 * The tag `npm run images:local` builds: the name SuppressionListContainer runs by default
 * (`suppression-list-service:latest`, which podman finds under `localhost/`).
 */
export const LOCAL_IMAGE = 'localhost/suppression-list-service:latest';

/** The machine's npm settings the build needs: registry, proxies and CA bundle, never a credential. */
async function npmBuildSecrets(dir: string): Promise<{ args: string[]; described: string }> {
  const get = async (key: string): Promise<string | undefined> => {
    const value = (await run('npm', ['config', 'get', key])).stdout.trim();
    return value === '' || value === 'null' || value === 'undefined' ? undefined : value;
  };
  const registry = (await get('registry')) ?? 'https://registry.npmjs.org/';
  const lines = [`registry=${registry}`];
  for (const key of ['proxy', 'https-proxy', 'noproxy']) {
    const value = await get(key);
    if (value !== undefined) lines.push(`${key}=${value}`);
  }
  const npmrc = join(dir, 'npmrc');
  await writeFile(npmrc, `${lines.join('\n')}\n`, { mode: 0o600 });
  const args = ['--secret', `id=npmrc,src=${npmrc}`];
  const ca = [await get('cafile'), process.env.NODE_EXTRA_CA_CERTS].find(
    (file): file is string => file !== undefined && file !== '' && existsSync(file),
  );
  if (ca !== undefined) args.push('--secret', `id=npm_ca,src=${ca}`);
  return { args, described: `npm registry ${registry}${ca === undefined ? '' : `, CA bundle ${ca}`}` };
}

/**
 * Builds the Dockerfile's image on `baseImage` as `tag`, with the npm settings as build secrets
 * written to `work`, and checks its configuration. False when the build failed (its output is in
 * `logFile`).
 */
export async function buildImage(
  p: Podman,
  results: Results,
  { baseImage, work, logFile, tag }: { baseImage: string; work: string; logFile: string; tag: string },
): Promise<boolean> {
  const secrets = await npmBuildSecrets(work);
  const imageId = async (): Promise<string> =>
    (await podman(p, ['image', 'inspect', '--format', '{{.Id}}', tag])).stdout.trim();
  const previousImage = await imageId();
  const buildStarted = Date.now();
  const build = await podman(
    p,
    [
      'build',
      // Docker's image format: OCI's has no HEALTHCHECK.
      '--format',
      'docker',
      '--network=host',
      ...p.limits,
      ...secrets.args,
      '--build-arg',
      `NODE_IMAGE=${baseImage}`,
      '--tag',
      tag,
      '--file',
      join(ROOT, 'Dockerfile'),
      ROOT,
    ],
    { logFile, timeoutMs: 30 * 60_000 },
  );
  if (
    !results.check(
      `${tag} builds: npm ci, npm run build (tsc and the console's vite build), npm prune (${secrets.described}; ${((Date.now() - buildStarted) / 1000).toFixed(0)} s)`,
      build.code === 0 ? undefined : `exit ${build.code}: ${lastLine(build.stderr)} (log: ${logFile})`,
    )
  ) {
    console.log(build.stderr.split('\n').slice(-30).join('\n'));
    return false;
  }
  // The image this one replaces would stay behind, untagged, on every run that changed something;
  // the build's cached layers stay.
  if (previousImage !== '' && previousImage !== (await imageId())) {
    await podman(p, ['rmi', previousImage]);
  }
  await checkImageConfiguration(p, results, tag);
  return true;
}

/** A non-root USER, STOPSIGNAL SIGTERM and a HEALTHCHECK on /health. */
async function checkImageConfiguration(p: Podman, results: Results, tag: string): Promise<void> {
  // Docker's format keeps the healthcheck beside the configuration, not in it.
  const config = await podman(p, ['image', 'inspect', '--format', '{{json .Config}}\n{{json .HealthCheck}}', tag]);
  const [configJson, healthJson] = config.stdout.split('\n');
  const imageConfig = JSON.parse(configJson || '{}') as { User?: string; StopSignal?: string };
  const healthcheck = JSON.parse(healthJson || 'null') as { Test?: string[] } | null;
  results.check(
    `image configuration: USER ${imageConfig.User}, STOPSIGNAL ${imageConfig.StopSignal}, HEALTHCHECK on /health`,
    imageConfig.User === undefined || ['', 'root', '0'].includes(imageConfig.User)
      ? 'no non-root USER'
      : imageConfig.StopSignal !== 'SIGTERM'
        ? `STOPSIGNAL is ${imageConfig.StopSignal}`
        : !healthcheck?.Test?.join(' ').includes('/health')
          ? 'no HEALTHCHECK on /health'
          : undefined,
  );
}
