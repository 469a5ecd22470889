import { setTimeout as sleep } from 'node:timers/promises';
import { stopIfInterrupted } from './interruption.js';
import { lastLine, podman, type Podman } from './podman.js';
import type { Results } from './results.js';

const READY_TIMEOUT_MS = 60_000;

/** The status of a GET, or why there was none. */
export async function httpStatus(url: string, headers: Record<string, string> = {}): Promise<number | string> {
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

/** Waits for `ready` to hold while the container runs; undefined when it does, else why not. */
export async function waitFor(
  p: Podman,
  container: string,
  ready: () => Promise<boolean>,
  what: string,
): Promise<string | undefined> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    stopIfInterrupted();
    if (await ready()) return undefined;
    if (!(await running(p, container))) {
      const code = (await podman(p, ['inspect', '--format', '{{.State.ExitCode}}', container])).stdout.trim();
      return `the container exited (status ${code}) before ${what}; its last lines:\n${await logTail(p, container)}`;
    }
    await sleep(250);
  }
  return `no ${what} within ${READY_TIMEOUT_MS / 1000} s; its last lines:\n${await logTail(p, container)}`;
}

/** Inside the container: PID 1's user, and whether the root filesystem refuses writes. */
export async function inspectInside(p: Podman, results: Results, container: string, label: string): Promise<void> {
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
