import { Command } from 'commander';
import { loadConfig, SERVER_TIMEOUTS, type Role } from '../../src/config.js';
import { closeDatabases, openRuntime, stopOnSignals } from '../../src/runtime.js';
import type { CliContext } from '../cli-context.js';

/** Each role's name in PostgreSQL's `application_name`, as the separate entry points name theirs. */
const APPLICATION_NAMES: Record<Role, string> = {
  all: 'suppression-list',
  api: 'suppression-list-api',
  workers: 'suppression-list-worker',
};

/**
 * The service itself: it logs on the process's stdout, as services do, and from then on the process
 * is its own (it stops on SIGTERM and SIGINT, and exits), so it runs only as a program.
 */
export function startCommand(context: CliContext): Command {
  return new Command('start')
    .description('run the service (migrations applied first): the API and the queue workers, or as ROLE says')
    .action(async () => {
      const { ROLE: role } = loadConfig(context.env);
      // Loaded when the service starts, not with every command: the API and the workers take most of
      // a second to load, which an `import` or an `export` would wait for before reading a line.
      const [workersModule, apiModule, probesModule] = await Promise.all([
        role === 'api' ? undefined : import('../../workers/start-workers.js'),
        role === 'workers' ? undefined : import('../../api/start-api.js'),
        role === 'workers' ? import('../probe-server.js') : undefined,
      ]);
      const runtime = await openRuntime(APPLICATION_NAMES[role], {
        env: context.env,
        readReplicas: role !== 'workers',
        service: true,
      });
      const { config, logger } = runtime;
      const workers = await workersModule?.startWorkers(runtime);
      const api = await apiModule?.startApi(runtime);
      // Without the API, the probes alone answer on HOST:PORT, for the orchestrator and Prometheus.
      const probes = await probesModule?.startProbeServer(runtime);
      logger.info({ role }, `running as ${role}`);
      stopOnSignals(
        logger,
        async () => {
          // /ready answers 503 from the first moment. The API serves on through SHUTDOWN_DELAY_MS, then
          // refuses new connections and finishes its requests, while the workers stop taking jobs and
          // finish their active ones; the probes answer until the workers are done; the pools go last.
          probes?.drain();
          await Promise.all([api?.close(), workers?.close()]);
          await probes?.close();
          await closeDatabases(runtime);
        },
        SERVER_TIMEOUTS.processGraceMs + (api === undefined ? 0 : config.SHUTDOWN_DELAY_MS),
      );
    });
}
