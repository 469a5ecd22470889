import { openRuntime, runMain, stopOnSignals } from '../src/runtime.js';
import { startWorkers } from './start-workers.js';

runMain(async () => {
  const runtime = await openRuntime('suppression-list-worker', { service: true });
  const workers = await startWorkers(runtime);
  stopOnSignals(runtime.logger, async () => {
    await workers.close();
    await runtime.db.close();
  });
});
