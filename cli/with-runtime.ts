import { openRuntime, type Runtime } from '../src/runtime.js';
import type { CliContext } from './cli-context.js';

/**
 * Opens a runtime for one command (logs on stderr, so stdout is only the command's output) and
 * always releases its connections.
 */
export async function withRuntime(
  context: CliContext,
  work: (runtime: Runtime) => Promise<void>,
  poolSize = 2,
): Promise<void> {
  const runtime = await openRuntime('suppression-list-cli', { env: context.env, logTo: context.stderr, poolSize });
  try {
    await work(runtime);
  } finally {
    await runtime.db.close();
  }
}
