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
}

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
}

/** Runs autocannon (programmatic API) and returns the figures the bench reports. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { next } = options;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount === undefined ? { duration: options.durationS ?? 5 } : { amount: options.amount }),
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(next
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const step = next();
                return { ...request, path: step.path, headers: { ...request.headers, ...step.headers }, ...(step.body === undefined ? {} : { body: step.body }) };
              },
            },
          ],
        }
      : {}),
  });
  const seconds = result.duration > 0 ? result.duration : 1;
  return {
    rps: result.requests.total / seconds,
    okPerSecond: result['2xx'] / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
