import { Command } from 'commander';
import { startApi } from '../../api/start-api.js';
import { closeDatabases, openRuntime, stopOnSignals } from '../../src/runtime.js';
import { startWorkers } from '../../workers/start-workers.js';

export function startCommand(): Command {
  return new Command('start')
    .description('run the API and the queue workers in one process (migrations applied first)')
    .action(async () => {
      const runtime = await openRuntime('suppression-list', { readReplicas: true });
      const workers = await startWorkers(runtime);
      const api = await startApi(runtime);
      stopOnSignals(runtime.logger, async () => {
        // New requests stop first; then the workers finish their active jobs; the pools go last.
        await api.close();
        await workers.close();
        await closeDatabases(runtime);
      });
    });
}
