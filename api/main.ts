import { SERVER_TIMEOUTS } from '../src/config.js';
import { closeDatabases, openRuntime, runMain, stopOnSignals } from '../src/runtime.js';
import { startApi } from './start-api.js';

runMain(async () => {
  const runtime = await openRuntime('suppression-list-api', { readReplicas: true, service: true });
  const api = await startApi(runtime);
  stopOnSignals(
    runtime.logger,
    async () => {
      await api.close();
      await closeDatabases(runtime);
    },
    SERVER_TIMEOUTS.processGraceMs + runtime.config.SHUTDOWN_DELAY_MS,
  );
});
