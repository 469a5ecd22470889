/** The list block of `npm run bench`: a deep page of the listing against its first page. */
import { performance } from 'node:perf_hooks';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import type { ApiBench } from './api-blocks.js';
import { quantile } from './http-load.js';

export interface ListFigures {
  first_page_p50_ms: number;
  deep_page_p50_ms: number;
  ratio: number;
}

/** p50 of GET /suppressions?limit=100: the first page versus a page with a cursor near the end. */
export async function measureList(bench: ApiBench, deadline: Deadline): Promise<ListFigures> {
  // The 150th oldest entry: its `after` page is the last full page but one of the listing.
  const { rows } = await bench.db.query<{ id: string }>({
    text: 'SELECT id FROM suppressions WHERE account_id = $1 ORDER BY id ASC OFFSET 150 LIMIT 1',
    values: [bench.listAccountId],
  });
  const cursor = rows[0]?.id;
  if (cursor === undefined) throw new Error('the list account has too few entries');
  // Sequential requests timed here (sub-millisecond resolution; autocannon reports whole milliseconds).
  const timed = async (path: string): Promise<number> => {
    const startedAt = performance.now();
    const response = await fetch(`${bench.service.url}${path}`, {
      headers: { authorization: `Bearer ${bench.listToken}` },
    });
    const body = (await response.json()) as { data?: unknown[] };
    const ms = performance.now() - startedAt;
    if (response.status !== 200 || body.data?.length !== 100)
      throw new Error(`list ${path}: status ${response.status}, ${body.data?.length ?? 0} entries`);
    return ms;
  };
  const paths = { first: '/suppressions?limit=100', deep: `/suppressions?limit=100&after=${cursor}` };
  // The two pages alternate, request by request, so both see the same drift in the machine's load.
  const measure = async (requests: number): Promise<{ first: number[]; deep: number[] }> => {
    const timings = { first: [] as number[], deep: [] as number[] };
    for (let index = 0; index < requests; index += 1) {
      const order = index % 2 === 0 ? (['first', 'deep'] as const) : (['deep', 'first'] as const);
      for (const page of order) timings[page].push(await timed(paths[page]));
    }
    return timings;
  };
  const median = (values: number[]): number =>
    Math.round(
      quantile(
        [...values].sort((x, y) => x - y),
        0.5,
      ) * 1000,
    ) / 1000;
  // Warm both paths (plans, caches), then measure.
  await beforeDeadline(deadline, measure(Math.min(20, bench.sizes.listRequests)));
  const timings = await beforeDeadline(deadline, measure(bench.sizes.listRequests));
  const first = median(timings.first);
  const deep = median(timings.deep);
  return { first_page_p50_ms: first, deep_page_p50_ms: deep, ratio: round3(deep / first) };
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
