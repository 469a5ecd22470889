import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { sleep } from './sleep.js';
import { stopProgram } from './stop-program.js';

/** Debian's Prometheus and its promtool, unless PROMETHEUS_PATH / PROMTOOL_PATH name others. */
export const PROMETHEUS_PATH = process.env['PROMETHEUS_PATH'] || '/usr/bin/prometheus';
export const PROMTOOL_PATH = process.env['PROMTOOL_PATH'] || '/usr/bin/promtool';

const INSTALL_HINT =
  'install it with `apt-get update && apt-get install -y prometheus` (Debian’s package brings promtool too)';

function required(file: string, what: string, variable: string): string {
  if (!existsSync(file)) throw new Error(`${what} not found at ${file}: ${INSTALL_HINT}, or set ${variable}.`);
  return file;
}

/** The Prometheus binary, or an error saying how to install it: a test that needs it never skips silently. */
export function prometheusBinary(): string {
  return required(PROMETHEUS_PATH, 'Prometheus', 'PROMETHEUS_PATH');
}

export interface PrometheusTarget {
  /** `host:port` of a /metrics endpoint. */
  address: string;
  /** Sent as `Authorization: Bearer <token>`, as METRICS_TOKEN requires. */
  bearerToken?: string;
}

/** One series of an answer of Prometheus's query API (`matrix`). */
export interface Series {
  metric: Record<string, string>;
  values: [number, string][];
}

export interface RunningPrometheus {
  url: string;
  /** `GET /api/v1/query_range`: the series of `expr` from `start` to `end` (Unix seconds), one point a `stepSeconds`. */
  queryRange(expr: string, start: number, end: number, stepSeconds?: number): Promise<Series[]>;
  /** `GET /api/v1/<path>`'s `data`, failing on any answer but success. */
  api<T>(pathAndQuery: string): Promise<T>;
  /** Resolves once a scrape of the target that began after this call is stored. */
  nextScrape(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A Prometheus of the test's own: a free port of 127.0.0.1, its storage in a temporary directory,
 * scraping `target` every second and evaluating `ruleFiles` every second. Resolves once it has
 * scraped the target successfully;
 * fails saying how to install it when the binary is missing, so the test never skips silently.
 */
export async function startPrometheus({
  job,
  target,
  ruleFiles = [],
}: {
  job: string;
  target: PrometheusTarget;
  ruleFiles?: string[];
}): Promise<RunningPrometheus> {
  const binary = prometheusBinary();
  const dir = await mkdtemp(path.join(tmpdir(), 'sl-prometheus-'));
  const port = await freePort();
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: ruleFiles,
    scrape_configs: [
      {
        job_name: job,
        ...(target.bearerToken === undefined ? {} : { authorization: { credentials: target.bearerToken } }),
        static_configs: [{ targets: [target.address] }],
      },
    ],
  };
  // JSON is YAML: the configuration needs no YAML writer.
  await writeFile(path.join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
  const child = spawn(
    binary,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await stopProgram(child, dir);
  };

  try {
    for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
      if (child.exitCode !== null) throw new Error(`Prometheus exited with ${child.exitCode}:\n${errors}`);
      const ready = await fetch(`${url}/-/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`Prometheus was not ready within 20 s:\n${errors}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  async function api<T>(pathAndQuery: string): Promise<T> {
    const response = await fetch(`${url}/api/v1/${pathAndQuery}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus answered ${response.status}: ${body.error ?? ''}`);
    return body.data;
  }

  // Prometheus applies new targets after a pause of its own: wait for the first scrape, so that the
  // caller's traffic falls between scrapes and shows as rates.
  try {
    for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
      const up = await api<{ result: { value: [number, string] }[] }>(
        `query?query=${encodeURIComponent(`up{job="${job}"}`)}`,
      );
      if (up.result.some(({ value }) => value[1] === '1')) break;
      if (Date.now() > deadline) throw new Error(`Prometheus did not scrape ${target.address} within 20 s:\n${errors}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    api,
    async queryRange(expr, start, end, stepSeconds = 1) {
      const query = new URLSearchParams({
        query: expr,
        start: String(start),
        end: String(end),
        step: `${stepSeconds}s`,
      });
      const data = await api<{ resultType: string; result: Series[] }>(`query_range?${query.toString()}`);
      return data.result;
    },
    async nextScrape() {
      // A sample's timestamp is when its scrape began.
      const after = Date.now() / 1000;
      const latest = `query?query=${encodeURIComponent(`timestamp(up{job="${job}"})`)}`;
      for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
        const { result } = await api<{ result: { value: [number, string] }[] }>(latest);
        if (result.some(({ value }) => Number(value[1]) > after)) return;
        if (Date.now() > deadline) throw new Error(`Prometheus did not scrape ${target.address} again within 20 s`);
      }
    },
    stop,
  };
}

export interface PromtoolRun {
  code: number;
  output: string;
}

/** Runs promtool with `args` in `cwd`, resolving with its exit code and everything it printed. */
export async function promtool(args: string[], cwd: string): Promise<PromtoolRun> {
  const binary = required(PROMTOOL_PATH, 'promtool', 'PROMTOOL_PATH');
  try {
    const { stdout, stderr } = await promisify(execFile)(binary, args, { cwd });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}
