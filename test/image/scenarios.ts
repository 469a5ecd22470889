import { randomBytes } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { CleanupStack } from '../../bench/common/cleanup.js';
import { SERVER_TIMEOUTS } from '../../src/config.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { freePort } from '../support/free-port.js';
import { httpStatus, inspectInside, waitFor } from './containers.js';
import { IMAGE } from './image-build.js';
import { stopIfInterrupted } from './interruption.js';
import { lastLine, podman, type Podman } from './podman.js';
import type { Results } from './results.js';
import { REDIS_URL, type RunStores } from './stores.js';

/** The process exits this long after SIGTERM at the latest; podman needs a moment on top. */
const GRACE_MS = SERVER_TIMEOUTS.processGraceMs;
const PODMAN_STOP_MARGIN_MS = 1000;

/** One way of running the image, and what it must then do. */
interface Scenario {
  /** How the lines printed name it; the container is named after it. */
  name: string;
  env: Record<string, string>;
  /** host file → path in the container, mounted read-only */
  files?: Record<string, string>;
  /** Serves the API (an unauthenticated GET /suppressions answers 401 rather than 404). */
  api: boolean;
  /** Runs queue workers. */
  workers: boolean;
  metricsToken?: string;
  adminToken?: string;
  /** Also checks non-root, read-only root and the console. */
  inspectContainer?: boolean;
}

/** What every scenario of a run shares. */
export interface Context {
  p: Podman;
  results: Results;
  cleanup: CleanupStack;
  stores: RunStores;
  runId: string;
}

async function workerCount(ctx: Context): Promise<number> {
  const queue = new Queue(EVENTS_QUEUE, { connection: ctx.stores.redis, prefix: ctx.stores.prefix });
  try {
    return await queue.getWorkersCount();
  } finally {
    await queue.close();
  }
}

async function runScenario(ctx: Context, scenario: Scenario): Promise<void> {
  stopIfInterrupted();
  const { p, results } = ctx;
  const label = scenario.name;
  const port = await freePort();
  const container = `sl-image-test-${ctx.runId}-${scenario.name.replace(/[^a-z0-9]+/g, '-')}`;
  const env: Record<string, string> = {
    // Host networking: bind to loopback only, so that nothing outside this machine reaches the test.
    HOST: '127.0.0.1',
    PORT: String(port),
    QUEUE_PREFIX: ctx.stores.prefix,
    REDIS_KEY_PREFIX: `${ctx.stores.prefix}:`,
    LOG_LEVEL: 'info',
    ...scenario.env,
  };
  const args = [
    'run',
    '--detach',
    '--name',
    container,
    '--network=host',
    '--read-only',
    // podman mounts a tmpfs on /tmp, /var/tmp and /run of a read-only container unless told not to;
    // the service needs none, and this shows it.
    '--read-only-tmpfs=false',
    '--cap-drop=ALL',
    '--security-opt=no-new-privileges',
    ...p.limits,
    ...Object.entries(env).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
    ...Object.entries(scenario.files ?? {}).flatMap(([host, inside]) => ['--volume', `${host}:${inside}:ro`]),
    IMAGE,
  ];
  // Registered before the start, so that a run interrupted while podman creates it removes it too.
  ctx.cleanup.push(`remove container ${container}`, () => podman(p, ['rm', '--force', '--ignore', container]));
  const started = await podman(p, args, { timeoutMs: 60_000 });
  if (!results.check(`${label}: the container starts`, started.code === 0 ? undefined : lastLine(started.stderr)))
    return;

  const base = `http://127.0.0.1:${port}`;
  const ready = await waitFor(p, container, async () => (await httpStatus(`${base}/ready`)) === 200, '/ready 200');
  if (!results.check(`${label}: /ready answers 200 (database and Redis reached from the container)`, ready)) return;

  if (scenario.inspectContainer) await inspectInside(p, results, container, label);
  // The orchestrator's view: the image's own HEALTHCHECK, on whatever serves PORT in this role.
  const health = await podman(p, ['healthcheck', 'run', container]);
  results.check(
    `${label}: the image's HEALTHCHECK passes (podman healthcheck run)`,
    health.code === 0 ? undefined : `exit ${health.code}: ${lastLine(`${health.stdout}\n${health.stderr}`)}`,
  );

  const workers = await workerCount(ctx);
  results.check(
    scenario.workers
      ? `${label}: runs the queue workers (${workers} on ${EVENTS_QUEUE})`
      : `${label}: runs no queue workers (none on ${EVENTS_QUEUE})`,
    scenario.workers === workers > 0 ? undefined : `${workers} workers registered on ${EVENTS_QUEUE}`,
  );

  const suppressions = await httpStatus(`${base}/suppressions`);
  results.check(
    scenario.api
      ? `${label}: serves the API (GET /suppressions without a key answers 401)`
      : `${label}: serves no API (GET /suppressions answers 404)`,
    suppressions === (scenario.api ? 401 : 404) ? undefined : `GET /suppressions answered ${suppressions}`,
  );
  if (scenario.metricsToken === undefined) {
    const metrics = await httpStatus(`${base}/metrics`);
    results.check(`${label}: /metrics answers 200`, metrics === 200 ? undefined : `answered ${metrics}`);
  } else {
    const without = await httpStatus(`${base}/metrics`);
    const withToken = await httpStatus(`${base}/metrics`, { authorization: `Bearer ${scenario.metricsToken}` });
    results.check(
      `${label}: /metrics answers 401 without the token read from METRICS_TOKEN_FILE and 200 with it`,
      without === 401 && withToken === 200 ? undefined : `answered ${without} without, ${withToken} with`,
    );
  }
  if (scenario.adminToken !== undefined) {
    const without = await httpStatus(`${base}/admin/queues`);
    const withToken = await httpStatus(`${base}/admin/queues`, { authorization: `Bearer ${scenario.adminToken}` });
    results.check(
      `${label}: the queue dashboard answers 401 without the token read from ADMIN_TOKEN_FILE and 200 with it`,
      without === 401 && withToken === 200 ? undefined : `answered ${without} without, ${withToken} with`,
    );
  }
  if (scenario.api && scenario.inspectContainer) {
    const consolePage = await httpStatus(`${base}/console/`);
    results.check(
      `${label}: serves the console built in the image (GET /console/ answers 200)`,
      consolePage === 200 ? undefined : `answered ${consolePage}`,
    );
  }
  if (scenario.files !== undefined) {
    const environ = await podman(p, ['exec', container, 'cat', '/proc/1/environ']);
    const names = environ.stdout.split('\0').map((entry) => entry.split('=')[0]);
    const leaked = ['DATABASE_URL', 'REDIS_URL', 'METRICS_TOKEN', 'ADMIN_TOKEN'].filter((name) => names.includes(name));
    results.check(
      `${label}: secrets read from files (DATABASE_URL_FILE, REDIS_URL_FILE, ...), none in the process's environment`,
      environ.code !== 0
        ? lastLine(environ.stderr)
        : leaked.length > 0
          ? `${leaked.join(', ')} in the environment`
          : undefined,
    );
  }

  const began = Date.now();
  const stopped = await podman(p, ['stop', '--time', String((GRACE_MS + 20_000) / 1000), container], {
    timeoutMs: GRACE_MS + 60_000,
  });
  const tookMs = Date.now() - began;
  const exitCode = (await podman(p, ['inspect', '--format', '{{.State.ExitCode}}', container])).stdout.trim();
  const logs = await podman(p, ['logs', container]);
  const sawSigterm = `${logs.stdout}${logs.stderr}`.includes('"signal":"SIGTERM"');
  results.check(
    `${label}: podman stop (SIGTERM) ends it with status 0 in ${(tookMs / 1000).toFixed(1)} s (grace ${GRACE_MS / 1000} s)`,
    stopped.code !== 0
      ? lastLine(stopped.stderr)
      : exitCode !== '0'
        ? `exit status ${exitCode}`
        : !sawSigterm
          ? 'the service did not log the SIGTERM it was sent'
          : tookMs > GRACE_MS + PODMAN_STOP_MARGIN_MS
            ? `took ${tookMs} ms`
            : undefined,
  );
}

/**
 * The image in each role: all in one as a developer runs it, then `ROLE=api` and `ROLE=workers`
 * with their secrets in files written to `work`, as compose mounts them.
 */
export async function runScenarios(ctx: Context, work: string): Promise<void> {
  const { databaseUrl } = ctx.stores;
  await runScenario(ctx, {
    // As a developer runs it: production would require PUBLIC_BASE_URL and METRICS_TOKEN.
    name: 'default (all in one, development)',
    env: { DATABASE_URL: databaseUrl, REDIS_URL, NODE_ENV: 'development' },
    api: true,
    workers: true,
    inspectContainer: true,
  });

  // Secrets as compose mounts them: files under /run/secrets, readable by the service's user.
  const metricsToken = randomBytes(16).toString('hex');
  const adminToken = randomBytes(16).toString('hex');
  const secretFiles: Record<string, string> = {};
  const secretEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries({
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    METRICS_TOKEN: metricsToken,
    ADMIN_TOKEN: adminToken,
  })) {
    const file = join(work, name.toLowerCase());
    await writeFile(file, `${value}\n`);
    await chmod(file, 0o444);
    secretFiles[file] = `/run/secrets/${name.toLowerCase()}`;
    secretEnv[`${name}_FILE`] = `/run/secrets/${name.toLowerCase()}`;
  }
  const withSecrets = {
    env: { ...secretEnv, PUBLIC_BASE_URL: 'https://suppressions.test' },
    files: secretFiles,
    metricsToken,
  };
  await runScenario(ctx, {
    name: 'ROLE=api',
    ...withSecrets,
    env: { ...withSecrets.env, ROLE: 'api' },
    adminToken,
    api: true,
    workers: false,
  });
  await runScenario(ctx, {
    name: 'ROLE=workers',
    ...withSecrets,
    env: { ...withSecrets.env, ROLE: 'workers' },
    api: false,
    workers: true,
  });
}
