import { Command } from 'commander';
import { closeDatabases, openRuntime, stopOnSignals } from '../../src/runtime.js';

export function startCommand(): Command {
  return new Command('start')
    .description('run the API and the queue workers in one process (migrations applied first)')
    .action(async () => {
      // Loaded when the service starts, not with every command: the API and the workers take most of
      // a second to load, which an `import` or an `export` would wait for before reading a line.
      const [{ startApi }, { startWorkers }] = await Promise.all([
        import('../../api/start-api.js'),
        import('../../workers/start-workers.js'),
      ]);
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
