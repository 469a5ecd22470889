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
 * the machine's Debian mirror and its own Node.js (`base-image.ts`; needs root and debootstrap);
 * NODE_IMAGE=<image> uses that image instead. The build gets the machine's npm registry, proxy and
 * CA bundle as build secrets. DATABASE_URL and REDIS_URL name the servers (default: 127.0.0.1).
 *
 * A program rather than a vitest file: it needs podman, root and minutes, so `npm test` leaves it out.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { CleanupStack } from '../../bench/common/cleanup.js';
import { SERVER_TIMEOUTS } from '../../src/config.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { databaseUrlFor } from '../support/database-url.js';
import { freePort } from '../support/free-port.js';
import { ensureStandInImage, STAND_IN_IMAGE } from './base-image.js';
import { findPodmanOptions, lastLine, podman, run, type Podman } from './podman.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IMAGE = 'localhost/suppression-list-service:test';
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
/** The process exits this long after SIGTERM at the latest; podman needs a moment on top. */
const GRACE_MS = SERVER_TIMEOUTS.processGraceMs;
const PODMAN_STOP_MARGIN_MS = 1000;
const READY_TIMEOUT_MS = 60_000;

let interruptedBy: NodeJS.Signals | undefined;

/** Throws once a signal has asked the run to stop: the caller's clean-up then runs. */
function stopIfInterrupted(): void {
  if (interruptedBy !== undefined) throw new Error(`interrupted by ${interruptedBy}`);
}

class Results {
  passed = 0;
  failed = 0;

  ok(what: string): void {
    this.passed += 1;
    console.log(`ok   ${what}`);
  }

  fail(what: string, why: string): void {
    this.failed += 1;
    console.log(`FAIL ${what}: ${why}`);
  }

  /** Records `what` as passed when `why` is undefined, else as failed for that reason. */
  check(what: string, why: string | undefined): boolean {
    if (why === undefined) this.ok(what);
    else this.fail(what, why);
    return why === undefined;
  }
}

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

/** Whether the machine's PostgreSQL and Redis answer; undefined when both do, else why not. */
async function storesAnswer(): Promise<string | undefined> {
  const problems: string[] = [];
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    problems.push(`PostgreSQL at ${SERVER_URL}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The connection's own error says why (refused, unknown host); the rejected call only that it closed.
  let connectionError: Error | undefined;
  redis.on('error', (error: Error) => {
    connectionError = error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    const reason = connectionError ?? (error instanceof Error ? error : new Error(String(error)));
    problems.push(`Redis at ${REDIS_URL}: ${reason.message}`);
  } finally {
    redis.disconnect();
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

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

interface Context {
  p: Podman;
  results: Results;
  cleanup: CleanupStack;
  databaseUrl: string;
  prefix: string;
  redis: Redis;
  runId: string;
}

async function httpStatus(url: string, headers: Record<string, string> = {}): Promise<number | string> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function running(p: Podman, container: string): Promise<boolean> {
  const result = await podman(p, ['inspect', '--format', '{{.State.Running}}', container]);
  return result.stdout.trim() === 'true';
}

async function logTail(p: Podman, container: string, lines = 5): Promise<string> {
  const result = await podman(p, ['logs', '--tail', String(lines), container]);
  return `${result.stdout}${result.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.includes('systemd'))
    .map((line) => `    ${line.slice(0, 400)}`)
    .join('\n');
}

async function workerCount(ctx: Context): Promise<number> {
  const queue = new Queue(EVENTS_QUEUE, { connection: ctx.redis, prefix: ctx.prefix });
  try {
    return await queue.getWorkersCount();
  } finally {
    await queue.close();
  }
}

/** Waits for `ready` to hold while the container runs; undefined when it does, else why not. */
async function waitFor(
  ctx: Context,
  container: string,
  ready: () => Promise<boolean>,
  what: string,
): Promise<string | undefined> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    stopIfInterrupted();
    if (await ready()) return undefined;
    if (!(await running(ctx.p, container))) {
      const code = (await podman(ctx.p, ['inspect', '--format', '{{.State.ExitCode}}', container])).stdout.trim();
      return `the container exited (status ${code}) before ${what}; its last lines:\n${await logTail(ctx.p, container)}`;
    }
    await sleep(250);
  }
  return `no ${what} within ${READY_TIMEOUT_MS / 1000} s; its last lines:\n${await logTail(ctx.p, container)}`;
}

/** Inside the container: PID 1's user, and whether the root filesystem refuses writes. */
async function inspectInside(ctx: Context, container: string, label: string): Promise<void> {
  const { p, results } = ctx;
  const status = await podman(p, ['exec', container, 'cat', '/proc/1/status']);
  const uids = /^Uid:\s+(.+)$/m.exec(status.stdout)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
  results.check(
    `${label}: the service (PID 1) runs as a non-root user (uid ${uids.join('/') || '?'})`,
    status.code !== 0
      ? lastLine(status.stderr)
      : uids.length === 0 || uids.some((uid) => uid === 0)
        ? 'it runs as root'
        : undefined,
  );
  const mounts = await podman(p, ['exec', container, 'cat', '/proc/mounts']);
  const rootMount = mounts.stdout.split('\n').find((line) => line.split(' ')[1] === '/');
  const writes = await podman(p, [
    'exec',
    container,
    'node',
    '-e',
    `const fs = require('fs'); const codes = [];
     for (const dir of ['/app', '/app/dist', '/tmp', '/var/tmp', '/home/node']) {
       try { fs.writeFileSync(dir + '/.write-probe', ''); codes.push(dir + ': writable'); } catch (e) { if (e.code !== 'EROFS') codes.push(dir + ': ' + e.code); }
     }
     console.log(codes.join(', '));`,
  ]);
  const rootReadOnly = rootMount?.split(' ')[3]?.split(',').includes('ro') ?? false;
  results.check(
    `${label}: root filesystem read-only, no tmpfs: writes to /app, /tmp, /var/tmp and the home directory fail with EROFS`,
    !rootReadOnly
      ? `/ is mounted ${rootMount ?? '(not found)'}`
      : writes.code !== 0
        ? lastLine(writes.stderr)
        : writes.stdout.trim() !== ''
          ? writes.stdout.trim()
          : undefined,
  );
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
    QUEUE_PREFIX: ctx.prefix,
    REDIS_KEY_PREFIX: `${ctx.prefix}:`,
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
  const ready = await waitFor(ctx, container, async () => (await httpStatus(`${base}/ready`)) === 200, '/ready 200');
  if (!results.check(`${label}: /ready answers 200 (database and Redis reached from the container)`, ready)) return;

  if (scenario.inspectContainer) await inspectInside(ctx, container, label);
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

async function main(): Promise<number> {
  const results = new Results();
  const cleanup = new CleanupStack();
  const runId = randomBytes(4).toString('hex');
  const work = await mkdtemp(join(tmpdir(), 'sl-image-test-'));
  cleanup.push('remove the scratch directory', () => rm(work, { recursive: true, force: true }));
  // Beside the scratch directory, which goes: kept when something failed, for its reason.
  const logFile = join(tmpdir(), `sl-image-test-${runId}.log`);
  // Interrupted, it stops at the next step and still removes what it made; a second signal exits.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interruptedBy !== undefined) process.exit(130);
      interruptedBy = signal;
      console.log(`${signal}: stopping, then removing the containers, the database and the Redis keys`);
    });
  }
  try {
    const version = await run('podman', ['--version']);
    if (!results.check(`podman is installed (${version.stdout.trim()})`, version.code === 0 ? undefined : 'not found'))
      return 1;
    if (!results.check('PostgreSQL and Redis answer', await storesAnswer())) return 1;

    let baseImage = process.env.NODE_IMAGE;
    if (baseImage === undefined || baseImage === '') {
      try {
        results.ok(`base image: ${await ensureStandInImage([], logFile)}`);
        baseImage = STAND_IN_IMAGE;
      } catch (error) {
        results.fail('base image', `${error instanceof Error ? error.message : String(error)} (log: ${logFile})`);
        return 1;
      }
    } else {
      results.ok(`base image: ${baseImage} (NODE_IMAGE)`);
    }

    const found = await findPodmanOptions(baseImage);
    if ('failures' in found) {
      results.fail('podman runs containers here', `every way tried failed:\n  ${found.failures.join('\n  ')}`);
      return 1;
    }
    const p = found;
    results.ok(`podman runs containers here (${p.described})`);

    const secrets = await npmBuildSecrets(work);
    const imageId = async (): Promise<string> =>
      (await podman(p, ['image', 'inspect', '--format', '{{.Id}}', IMAGE])).stdout.trim();
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
        IMAGE,
        '--file',
        join(ROOT, 'Dockerfile'),
        ROOT,
      ],
      { logFile, timeoutMs: 30 * 60_000 },
    );
    if (
      !results.check(
        `the image builds: npm ci, npm run build (tsc and the console's vite build), npm prune (${secrets.described}; ${((Date.now() - buildStarted) / 1000).toFixed(0)} s)`,
        build.code === 0 ? undefined : `exit ${build.code}: ${lastLine(build.stderr)} (log: ${logFile})`,
      )
    ) {
      console.log(build.stderr.split('\n').slice(-30).join('\n'));
      return 1;
    }
    // The image this one replaces would stay behind, untagged, on every run that changed something;
    // the build's cached layers stay.
    if (previousImage !== '' && previousImage !== (await imageId())) {
      await podman(p, ['rmi', previousImage]);
    }

    // Docker's format keeps the healthcheck beside the configuration, not in it.
    const config = await podman(p, ['image', 'inspect', '--format', '{{json .Config}}\n{{json .HealthCheck}}', IMAGE]);
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

    stopIfInterrupted();
    const database = `sl_image_${runId}`;
    const server = new pg.Client({ connectionString: SERVER_URL });
    await server.connect();
    try {
      await server.query(`CREATE DATABASE ${database}`);
    } finally {
      await server.end();
    }
    cleanup.push(`drop database ${database}`, async () => {
      const client = new pg.Client({ connectionString: SERVER_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    });
    const databaseUrl = databaseUrlFor(SERVER_URL, database);
    const prefix = `slimg${runId}`;
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
    // A failed command says what went wrong; the client's own events would only repeat it.
    redis.on('error', () => undefined);
    cleanup.push('close Redis', () => redis.quit());
    cleanup.push(`delete the Redis keys of ${prefix}`, async () => {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    });
    const ctx: Context = { p, results, cleanup, databaseUrl, prefix, redis, runId };
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
      env: { ...secretEnv, ROLE: 'api' },
      adminToken,
      api: true,
      workers: false,
    });
    await runScenario(ctx, {
      name: 'ROLE=workers',
      ...withSecrets,
      env: { ...secretEnv, ROLE: 'workers' },
      api: false,
      workers: true,
    });
    return results.failed > 0 ? 1 : 0;
  } finally {
    const failures = await cleanup.runAll();
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
    if (interruptedBy === undefined) console.error(error);
    process.exitCode = interruptedBy === undefined ? 1 : 130;
  },
);
