import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { followPeakRss } from '../common/peak-rss.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildServer {
  url: string;
  pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after a grace) and returns its peak RSS in MB. */
  stop(): Promise<number>;
}

/**
 * Starts `script` (TypeScript, through tsx) in a process of its own with `env`, and resolves with
 * its URL once it prints `LISTENING <url>`. Its peak memory is followed from the start.
 */
export async function startChildServer(
  script: string,
  env: NodeJS.ProcessEnv,
  startTimeoutMs = 30_000,
): Promise<ChildServer> {
  // BENCH_SERVER_NODE_ARGS adds Node flags to the servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them.
  const extra = (env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...extra, '--max-semi-space-size=64', '--import', 'tsx', script], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid as number;
  const rss = followPeakRss(pid);
  let output = '';
  const exited = once(child, 'exit');
  let stopped: Promise<number> | undefined;
  const stop = (): Promise<number> => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(kill);
      }
      return rss.stop();
    })();
    return stopped;
  };
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 20_000) output = output.slice(-10_000);
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(
        () => reject(new Error(`${script} did not start within ${startTimeoutMs} ms:\n${output}`)),
        startTimeoutMs,
      );
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /^LISTENING (\S+)$/m.exec(stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited with ${code} before listening:\n${output}`));
      });
    });
    return { url, pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
