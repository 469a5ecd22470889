import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end and collects its output; `input` is piped to its stdin. */
export async function run(
  program: string,
  args: readonly string[],
  options: { timeoutMs?: number; logFile?: string; stdin?: NodeJS.ReadableStream } = {},
): Promise<CommandResult> {
  const child = spawn(program, args, { stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  if (options.stdin && child.stdin) options.stdin.pipe(child.stdin);
  const log = options.logFile === undefined ? undefined : createWriteStream(options.logFile, { flags: 'a' });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    log?.write(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    log?.write(chunk);
  });
  const timer =
    options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const code = await new Promise<number>((resolve) => {
    child.on('error', (error) => {
      stderr += error.message;
      resolve(127);
    });
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  clearTimeout(timer);
  await new Promise<void>((resolve) => (log ? log.end(resolve) : resolve()));
  return { code, stdout, stderr };
}

/** The last lines of a program's error output, for a one-line failure. */
export function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    // podman's complaints that no systemd runs the healthcheck timers say nothing about the test.
    .filter((line) => line !== '' && !line.includes('systemd'));
  return lines.at(-1) ?? '(no output)';
}

/**
 * How podman must be called on this machine. A sandbox may refuse podman's defaults: the resource
 * limits it sets (above the hard limits here, without CAP_SYS_RESOURCE) and crun on a cgroup v1/v2
 * hybrid; `limits` and `global` carry what made it work, for builds and runs alike.
 */
export interface Podman {
  global: string[];
  limits: string[];
  /** What was needed beyond the defaults, in words, or `defaults`. */
  described: string;
}

export async function podman(p: Podman, args: readonly string[], options: Parameters<typeof run>[2] = {}) {
  return run('podman', [...p.global, ...args], options);
}

/** This process's hard limit of one resource, from /proc/self/limits. */
export async function hardLimit(name: string): Promise<number | undefined> {
  const text = await readFile('/proc/self/limits', 'utf8').catch(() => '');
  const line = text.split('\n').find((entry) => entry.startsWith(name));
  const value = line?.slice(name.length).trim().split(/\s+/)[1];
  return value === undefined || value === 'unlimited' ? undefined : Number(value);
}

/**
 * Finds options with which podman runs `command` in `image` here: its defaults first, then what
 * sandboxes need.
 */
export async function findPodmanOptions(
  image: string,
  command: readonly string[] = ['true'],
): Promise<Podman | { failures: string[] }> {
  const files = (await hardLimit('Max open files')) ?? 65536;
  // The service runs a few dozen threads; podman's own default asks for more than a sandbox allows.
  const processes = Math.min((await hardLimit('Max processes')) ?? 4096, 4096);
  const limits = ['--ulimit', `nofile=${files}:${files}`, '--ulimit', `nproc=${processes}:${processes}`];
  const attempts: Podman[] = [
    { global: [], limits: [], described: 'defaults' },
    { global: [], limits, described: `--ulimit nofile=${files} nproc=${processes}` },
    { global: ['--runtime', 'runc'], limits, described: `--runtime runc, --ulimit nofile=${files} nproc=${processes}` },
    {
      global: ['--runtime', 'runc', '--cgroup-manager=cgroupfs', '--events-backend=file'],
      limits: [...limits, '--cgroups=disabled'],
      described: `--runtime runc --cgroup-manager=cgroupfs --events-backend=file --cgroups=disabled, --ulimit nofile=${files} nproc=${processes}`,
    },
  ];
  const failures: string[] = [];
  for (const attempt of attempts) {
    const result = await podman(attempt, ['run', '--rm', '--network=host', ...attempt.limits, image, ...command], {
      timeoutMs: 60_000,
    });
    if (result.code === 0) return attempt;
    failures.push(`${attempt.described}: ${lastLine(result.stderr)}`);
  }
  return { failures };
}
