import { Command } from 'commander';
import { startApi } from '../../api/start-api.js';
import { openRuntime, stopOnSignals } from '../../src/runtime.js';

export function startCommand(): Command {
  return new Command('start').description('run the API (migrations applied first)').action(async () => {
    const runtime = await openRuntime('suppression-list');
    const api = await startApi(runtime);
    stopOnSignals(runtime.logger, async () => {
      await api.close();
      await runtime.db.close();
    });
  });
}
