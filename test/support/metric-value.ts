import type { RunningServer } from '../../api/server.js';

/** A value of the app's /metrics: the sum of the samples of `name` whose labels include `labels`. */
export async function metricValue(
  server: Pick<RunningServer, 'url'>,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum = (sum ?? 0) + Number(match[3]);
  }
  return sum;
}
