import { spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { hardLimit } from './podman.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUN_DIR = '/run/podman';

/** Podman's Docker-compatible API, as root. */
export const PODMAN_SOCKET = `${RUN_DIR}/podman.sock`;
/** The configuration the API service, and the podman commands of these scripts, run with. */
export const CONTAINERS_CONF = `${RUN_DIR}/containers.conf`;
const SERVICE_LOG = `${RUN_DIR}/service.log`;
const RUNNER_LOG = `${RUN_DIR}/healthchecks.log`;
export const RUNNER_PID_FILE = `${RUN_DIR}/healthchecks.pid`;

/**
 * What Testcontainers needs to reach podman's socket. Ryuk, the container that removes what a test
 * run left, does not run on podman here, so each test removes what it starts.
 */
export const TESTCONTAINERS_ENV = {
  DOCKER_HOST: `unix://${PODMAN_SOCKET}`,
  TESTCONTAINERS_RYUK_DISABLED: 'true',
  TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1',
} as const;

/**
 * runc, since crun refuses this kind of machine's mixed cgroup hierarchy, and limits within the
 * sandbox's hard limits: podman's own defaults ask for more, and the container then fails to start.
 */
export async function containersConf(): Promise<string> {
  const files = (await hardLimit('Max open files')) ?? 65536;
  const processes = Math.min((await hardLimit('Max processes')) ?? 4096, 4096);
  return [
    '[engine]',
    'runtime = "runc"',
    '',
    '[containers]',
    `default_ulimits = ["nofile=${files}:${files}", "nproc=${processes}:${processes}"]`,
    '',
  ].join('\n');
}

/** Whether something answers Docker's `GET /_ping` on `socket`. */
export function socketAnswers(socket = PODMAN_SOCKET): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath: socket, path: '/_ping', timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

/** Whether the healthcheck runner of `startPodmanService` runs. */
export function healthcheckRunnerRuns(): boolean {
  return alive(RUNNER_PID_FILE, 'healthcheck-runner');
}

function alive(pidFile: string, marker: string): boolean {
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

/** Starts `command` on its own, outliving this process, with its output in `log`. */
function startDetached(command: string, args: string[], log: string): number | undefined {
  const out = openSync(log, 'a');
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, CONTAINERS_CONF },
  });
  child.unref();
  return child.pid;
}

/**
 * Makes podman's API answer on PODMAN_SOCKET with CONTAINERS_CONF, and the healthcheck runner run
 * beside it (`healthcheck-runner.ts`); each is left running when it already is. Sets CONTAINERS_CONF
 * in this process too, for the podman commands it runs next. Returns what it did, a line each.
 */
export async function startPodmanService(): Promise<string[]> {
  if (process.getuid?.() !== 0) throw new Error(`podman's socket at ${PODMAN_SOCKET} needs root`);
  await mkdir(RUN_DIR, { recursive: true });
  await writeFile(CONTAINERS_CONF, await containersConf());
  process.env.CONTAINERS_CONF = CONTAINERS_CONF;
  const lines = [`${CONTAINERS_CONF}: runtime runc, ulimits within this machine's hard limits`];
  if (await socketAnswers()) {
    lines.push(`podman's API already answers on ${PODMAN_SOCKET}`);
  } else {
    startDetached('podman', ['system', 'service', '--time=0', `unix://${PODMAN_SOCKET}`], SERVICE_LOG);
    let answered = false;
    for (let waited = 0; waited < 30_000 && !answered; waited += 200) {
      await sleep(200);
      answered = await socketAnswers();
    }
    if (!answered) throw new Error(`podman system service did not answer on ${PODMAN_SOCKET} (log: ${SERVICE_LOG})`);
    lines.push(`podman system service started on ${PODMAN_SOCKET} (log: ${SERVICE_LOG})`);
  }
  if (healthcheckRunnerRuns()) {
    lines.push('the healthcheck runner already runs');
  } else {
    const runner = fileURLToPath(new URL('./healthcheck-runner.ts', import.meta.url));
    startDetached(process.execPath, ['--import', 'tsx', runner], RUNNER_LOG);
    lines.push(`the healthcheck runner started, for want of systemd's timers (log: ${RUNNER_LOG})`);
  }
  return lines;
}
