import { openRuntime, type Runtime } from '../src/runtime.js';

/**
 * Opens a runtime for one command (logs on stderr, so stdout is only the command's output) and
 * always releases its connections.
 */
export async function withRuntime(work: (runtime: Runtime) => Promise<void>, poolSize = 2): Promise<void> {
  const runtime = await openRuntime('suppression-list-cli', { logTo: 'stderr', poolSize });
  try {
    await work(runtime);
  } finally {
    await runtime.db.close();
  }
}
