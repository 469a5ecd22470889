/** The batch-add block of `npm run bench`: addresses written per second through POST /suppressions/batch/add. */
import { checkLoad, loadWindow, type ApiBench } from './api-blocks.js';
import { beforeDeadline, type Deadline } from '../common/deadline.js';
import { runLoad } from './http-load.js';

/** POST /suppressions/batch/add with 100 new addresses per request: addresses written per second. */
export async function measureBatchAdd(bench: ApiBench, deadline: Deadline): Promise<{ addresses_per_s: number }> {
  let counter = 0;
  const tokens = bench.tokens;
  const result = checkLoad(
    'batch add',
    await beforeDeadline(
      deadline,
      runLoad({
        url: bench.service.url,
        connections: bench.sizes.batchConnections,
        ...loadWindow(bench.sizes, bench.sizes.batchS, bench.sizes.batchConnections),
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        next: () => {
          const batch = counter++;
          const emails = Array.from({ length: 100 }, (_, index) => `new${batch}.${index}@batch.example.com`);
          return {
            path: '/suppressions/batch/add',
            headers: { authorization: `Bearer ${tokens[batch % tokens.length]}` },
            body: JSON.stringify({ emails }),
          };
        },
      }),
    ),
  );
  return { addresses_per_s: Math.round(result.okPerSecond * 100) };
}
