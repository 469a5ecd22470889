import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The service compiled as `npm run build` compiles it, into a directory of its own. */
export interface BuiltService {
  dir: string;
  remove(): Promise<void>;
}

/**
 * Compiles the service with its build configuration into `dir`, which then resolves packages from
 * this checkout, so `api/main.js`, `workers/main.js` and `cli/main.js` run as they do from `dist/`.
 * Without `typeCheck` only the emit runs (a second or two rather than several): the tests that run
 * the build do not also need it to type-check, `npm run typecheck` does that.
 */
export async function compileService(dir: string, { typeCheck }: { typeCheck: boolean }): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [
      TSC,
      '-p',
      'tsconfig.build.json',
      '--outDir',
      dir,
      '--declaration',
      'false',
      '--sourceMap',
      'false',
      ...(typeCheck ? [] : ['--noCheck']),
    ],
    { cwd: ROOT },
  );
  await cp(join(ROOT, 'src/db/migrations'), join(dir, 'src/db/migrations'), { recursive: true });
  await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** Compiles and type-checks the service into a temporary directory of its own. */
export async function buildService(): Promise<BuiltService> {
  const dir = await mkdtemp(join(os.tmpdir(), 'sl-built-'));
  try {
    await compileService(dir, { typeCheck: true });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface ServiceProcess {
  child: ChildProcess;
  /** The JSON log lines it has written so far. */
  readonly logs: Record<string, unknown>[];
  /** The API's address, for an API process; the probes', for `start` in the `workers` role. */
  url?: string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * What production requires (`src/production-settings.ts`), for the processes whose test does not
 * set it itself, directly or as a `_FILE`.
 */
export const PRODUCTION_DEFAULTS = {
  PUBLIC_BASE_URL: 'https://suppressions.test',
  METRICS_TOKEN: `metrics-token-${randomUUID()}`,
} as const;

function withProductionDefaults(env: Record<string, string>): Record<string, string> {
  const defaults = Object.entries(PRODUCTION_DEFAULTS).filter(
    ([name]) => env[name] === undefined && env[`${name}_FILE`] === undefined,
  );
  return { ...Object.fromEntries(defaults), ...env };
}

/** What a `suppression-list start` process says once it serves, in each role. */
const START_READY: Record<string, string> = { all: 'API listening', api: 'API listening', workers: 'probes listening' };

/**
 * Starts a built entry point (`api/main.js`, `workers/main.js`, or `cli/main.js start` in the role
 * `env.ROLE` names) with the given environment and resolves once it says it is serving:
 * `API listening`, `... workers running`, or `probes listening`.
 */
export async function startServiceProcess(
  built: Pick<BuiltService, 'dir'>,
  entry: 'api/main.js' | 'workers/main.js' | 'cli/main.js start',
  env: Record<string, string>,
): Promise<ServiceProcess> {
  const [file = entry, ...args] = entry.split(' ');
  const readyWhen = args.length > 0 ? START_READY[env['ROLE'] ?? 'all'] : undefined;
  const child = spawn(process.execPath, [join(built.dir, file), ...args], {
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'info', NODE_ENV: 'production', ...withProductionDefaults(env) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let pending = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const ready = new Promise<string | undefined>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const record = JSON.parse(line) as Record<string, unknown>;
        logs.push(record);
        const message = typeof record['msg'] === 'string' ? record['msg'] : '';
        if (readyWhen !== undefined) {
          if (message === readyWhen) resolve(String(record['url']));
        } else if (message === 'API listening') resolve(String(record['url']));
        else if (message.endsWith('workers running')) resolve(undefined);
      }
    });
  });
  const exitCode = once(child, 'exit').then(([code]) => code as number | null);
  const exited = exitCode.then((code) => {
    throw new Error(`${entry} exited with ${String(code)} before it was ready:\n${errors}`);
  });
  const url = await Promise.race([ready, exited]);
  exited.catch(() => undefined);
  return {
    child,
    logs,
    exited: exitCode,
    ...(url === undefined ? {} : { url }),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const stopped = once(child, 'exit');
      child.kill(signal);
      await stopped;
    },
  };
}
