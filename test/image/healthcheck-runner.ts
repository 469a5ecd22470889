/**
 * Runs the healthchecks of podman's containers on a machine without systemd; started by
 * `npm run podman:start` (`podman-service.ts`), and left running.
 *
 * Podman runs a container's healthcheck from a systemd timer it makes as the container starts. With
 * no systemd (a sandbox, a container), podman 4.3 makes none, the status stays `starting`, and
 * whatever waits for `healthy` (Testcontainers' PostgreSqlContainer, which the test harness uses)
 * waits until it gives up. This process does what those timers would: it follows podman's start
 * events and, for each container with a healthcheck, runs `podman healthcheck run` at the check's
 * interval (a second at least) until it passes, then every 10 s at most, until the container stops. Docker runs
 * healthchecks itself and needs none of this.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { lastLine, run } from './podman.js';
import { RUNNER_PID_FILE } from './podman-service.js';

/** Once healthy, checks this often at most: nothing reads the status after the start but people. */
const HEALTHY_INTERVAL_MS = 10_000;
/**
 * Never more often than this, whatever the check asks (PostgreSqlContainer asks every 250 ms): each
 * check is a podman process and an exec in the container, most of a core for a second on a loaded
 * two-core machine, and podman's own timers are a second accurate.
 */
const MIN_INTERVAL_MS = 1000;
const DEFAULT_INTERVAL_MS = 30_000;
/** `podman healthcheck run`: 0 healthy, 1 unhealthy, 125 an error (a timeout, a container gone). */
const UNHEALTHY = 1;

const followed = new Set<string>();

function log(message: string): void {
  console.log(`${new Date().toISOString()} ${message}`);
}

async function intervalOf(id: string): Promise<number | undefined> {
  const inspected = await run('podman', ['inspect', '--format', '{{json .Config.Healthcheck}}', id]);
  if (inspected.code !== 0) return undefined;
  const check = JSON.parse(inspected.stdout.trim() || 'null') as { Test?: string[]; Interval?: number } | null;
  if (!check?.Test?.length || check.Test[0] === 'NONE') return undefined;
  // Nanoseconds, as in Docker's API.
  return check.Interval ? Math.max(MIN_INTERVAL_MS, check.Interval / 1e6) : DEFAULT_INTERVAL_MS;
}

async function stillRunning(id: string): Promise<boolean> {
  const inspected = await run('podman', ['container', 'inspect', '--format', '{{.State.Running}}', id]);
  return inspected.code === 0 && inspected.stdout.trim() === 'true';
}

async function follow(id: string): Promise<void> {
  if (followed.has(id)) return;
  followed.add(id);
  try {
    const interval = await intervalOf(id);
    if (interval === undefined) return;
    log(`${id.slice(0, 12)}: every ${interval} ms until healthy`);
    let healthy = false;
    for (;;) {
      const { code, stderr } = await run('podman', ['healthcheck', 'run', id]);
      // A check that fails, or takes longer than its timeout (podman then answers 125, as for a
      // container that is gone), counts against the container as Docker counts it; only a container
      // that no longer runs ends the checks.
      if (code !== 0 && code !== UNHEALTHY && !(await stillRunning(id))) {
        log(`${id.slice(0, 12)}: podman healthcheck run answered ${code}: ${lastLine(stderr)}`);
        break;
      }
      if (code === 0 && !healthy) log(`${id.slice(0, 12)}: healthy`);
      healthy ||= code === 0;
      await sleep(healthy ? Math.max(interval, HEALTHY_INTERVAL_MS) : interval);
    }
    log(`${id.slice(0, 12)}: stopped`);
  } finally {
    followed.delete(id);
  }
}

/** Follows every container that starts from now on, and starts over if podman's event stream ends. */
async function followStarts(): Promise<never> {
  for (;;) {
    const events = spawn('podman', ['events', '--format', 'json', '--filter', 'event=start'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    for await (const line of createInterface({ input: events.stdout })) {
      try {
        const event = JSON.parse(line) as { ID?: string; Type?: string };
        if (event.Type === 'container' && event.ID) void follow(event.ID);
      } catch {
        log(`not an event: ${line.slice(0, 200)}`);
      }
    }
    log('podman events ended; following again in a second');
    await sleep(1000);
  }
}

writeFileSync(RUNNER_PID_FILE, `${process.pid}\n`);
const running = await run('podman', ['ps', '--format', '{{.ID}}', '--no-trunc']);
for (const id of running.stdout.split('\n').filter(Boolean)) void follow(id);
await followStarts();
