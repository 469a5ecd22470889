import autocannon from 'autocannon';

export interface LoadResult {
  /** Requests answered per second (any status). */
  rps: number;
  /** Requests answered with 2xx per second. */
  okPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Seconds the load ran. */
  seconds: number;
  /** Every response time in milliseconds (sub-millisecond resolution), in arrival order. */
  latenciesMs: number[];
}

/** How long a load runs: seconds, or a number of requests. */
export type LoadWindow = { durationS: number } | { amount: number };

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds of load; or `amount` requests instead. */
  durationS?: number;
  amount?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Called before each request: the path, headers and body to send. */
  next?: () => { path: string; headers?: Record<string, string>; body?: string };
  /**
   * Requests sent in turn on each connection, instead of `next`: autocannon encodes each once, so a
   * large body costs the load generator nothing per request.
   */
  requests?: { path: string; headers?: Record<string, string>; body?: string }[];
}

/** The `fraction` quantile (0..1) of ascending `sorted` values, by nearest rank; 0 when empty. */
export function quantile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] as number;
}

/** The items one after another, from the first again after the last. */
export function cycle<T>(items: readonly T[]): () => T {
  let index = 0;
  return () => items[index++ % items.length] as T;
}

/** p50/p90/p99/p99.9 of a load's latencies, in ms. */
export function latencyProfile(load: LoadResult): string {
  const sorted = [...load.latenciesMs].sort((x, y) => x - y);
  return [0.5, 0.9, 0.99, 0.999].map((fraction) => quantile(sorted, fraction).toFixed(1)).join('/');
}

const twoDecimals = (value: number): number => Math.round(value * 100) / 100;

/** Runs autocannon (programmatic API) and returns the figures the bench reports. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { next } = options;
  const latenciesMs: number[] = [];
  const autocannonOptions: autocannon.Options = {
    url: options.url,
    connections: options.connections,
    // autocannon ends a run at its next sample, each second by default: sampled every 10 ms, a run of
    // a number of requests ends with its last answer rather than up to a second later.
    ...(options.amount === undefined
      ? { duration: options.durationS ?? 5 }
      : { amount: options.amount, sampleInt: 10 }),
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.requests
      ? {
          requests: options.requests.map((request) => ({
            method: options.method ?? 'GET',
            path: request.path,
            headers: { ...options.headers, ...request.headers },
            ...(request.body === undefined ? {} : { body: request.body }),
          })),
        }
      : {}),
    ...(next
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const step = next();
                return {
                  ...request,
                  path: step.path,
                  headers: { ...request.headers, ...step.headers },
                  ...(step.body === undefined ? {} : { body: step.body }),
                };
              },
            },
          ],
        }
      : {}),
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(autocannonOptions, (error: unknown, outcome: autocannon.Result) => {
      if (error) reject(error instanceof Error ? error : new Error(`autocannon: ${JSON.stringify(error)}`));
      else resolve(outcome);
    });
    // autocannon reports whole milliseconds; its per-response event carries the exact time.
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) => {
      latenciesMs.push(responseTimeMs);
    });
  });
  const seconds = result.duration > 0 ? result.duration : 1;
  const sorted = [...latenciesMs].sort((x, y) => x - y);
  return {
    rps: result.requests.total / seconds,
    okPerSecond: result['2xx'] / seconds,
    p50Ms: twoDecimals(quantile(sorted, 0.5)),
    p99Ms: twoDecimals(quantile(sorted, 0.99)),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    seconds,
    latenciesMs,
  };
}

/**
 * Several loads run as one: requests and seconds summed, percentiles over every response of every
 * round. Used to interleave a service and its baseline in short alternating rounds, so that both
 * see the same drift in a shared machine's load.
 */
export function combineLoads(results: readonly LoadResult[]): LoadResult {
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0) || 1;
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const ok = results.reduce((sum, r) => sum + r.okPerSecond * r.seconds, 0);
  const latenciesMs = results.flatMap((r) => r.latenciesMs);
  const sorted = [...latenciesMs].sort((x, y) => x - y);
  return {
    rps: requests / seconds,
    okPerSecond: ok / seconds,
    p50Ms: twoDecimals(quantile(sorted, 0.5)),
    p99Ms: twoDecimals(quantile(sorted, 0.99)),
    requests,
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    seconds,
    latenciesMs,
  };
}

/**
 * Loads that ran at the same time, on several processes, as one: their rates added, over the
 * longest one's seconds; percentiles over every response.
 */
export function parallelLoads(results: readonly LoadResult[]): LoadResult {
  const seconds = Math.max(...results.map((r) => r.seconds), 0) || 1;
  const combined = combineLoads(results);
  const ok = results.reduce((sum, r) => sum + r.okPerSecond * r.seconds, 0);
  return { ...combined, rps: combined.requests / seconds, okPerSecond: ok / seconds, seconds };
}
