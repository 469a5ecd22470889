import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { runCli, spawnCli } from '../support/run-cli.js';

const COMMANDS = [
  'start',
  'migrate',
  'keys',
  'feeds',
  'webhooks',
  'settings',
  'allowlist',
  'return-paths',
  'mail',
  'events',
  'import',
  'remove',
  'export',
  'reclassify',
];

/** The test Redis, under a queue prefix no other file uses: `events publish` connects to it and queues nothing. */
const env = { REDIS_URL: inject('redisUrl'), QUEUE_PREFIX: `test-${randomBytes(5).toString('hex')}` };

describe('the program', () => {
  it('when run with --help, then it lists every command on stdout and exits 0', async () => {
    const run = await spawnCli(['--help'], env);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: suppression-list \[options\] \[command\]$/m);
    for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
  });
});

describe('a command line run inside another process', () => {
  let stdoutWrite: ReturnType<typeof vi.spyOn>;
  let stderrWrite: ReturnType<typeof vi.spyOn>;
  const listeners = (): number[] =>
    (['SIGTERM', 'SIGINT', 'exit', 'beforeExit', 'uncaughtException'] as const).map((event) =>
      process.listenerCount(event),
    );
  let listenersBefore: number[];
  let exitCodeBefore: typeof process.exitCode;

  beforeEach(() => {
    stdoutWrite = vi.spyOn(process.stdout, 'write');
    stderrWrite = vi.spyOn(process.stderr, 'write');
    listenersBefore = listeners();
    exitCodeBefore = process.exitCode;
  });

  afterEach(() => {
    stdoutWrite.mockRestore();
    stderrWrite.mockRestore();
  });

  /** The host process is as it was: no exit code, no listener, nothing written on its own streams. */
  function expectHostUntouched(): void {
    expect(process.exitCode).toBe(exitCodeBefore);
    expect(listeners()).toEqual(listenersBefore);
    expect(stdoutWrite).not.toHaveBeenCalled();
    expect(stderrWrite).not.toHaveBeenCalled();
  }

  it('when it asks for help, then the help goes to the given stdout and the code is 0', async () => {
    const run = await runCli(['events', '--help'], env);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: suppression-list events \[options\] \[command\]$/m);
    expectHostUntouched();
  });

  it('when commander refuses the arguments, then its message goes to the given stderr and the code is 1', async () => {
    const unknown = await runCli(['nonsense'], env);
    const invalid = await runCli(['events', 'failed', '--limit', '0'], env);

    expect(unknown).toEqual({ code: 1, stdout: '', stderr: "error: unknown command 'nonsense'\n" });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("error: option '--limit <n>' argument '0' is invalid.");
    expectHostUntouched();
  });

  it('when a command fails, or ends with something to report, then the code says so and the process’s own stays', async () => {
    const failed = await runCli(['events', 'retry'], env);
    const reported = await runCli(['events', 'publish', '-'], env, '{oops\n');

    expect(failed).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: Give the ids of the jobs to retry (see `events failed`), or --all.\n',
    });
    expect(reported.code).toBe(1);
    expect(reported.stdout).toBe('Queued 0 events from 1 line; 1 invalid line not queued.\n');
    expect(reported.stderr).toMatch(/^line 1: malformed JSON: /);
    expectHostUntouched();
  });
});
