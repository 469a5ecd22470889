import { openRuntime, type Runtime } from '../src/runtime.js';

/** Opens a runtime for one command and always releases its connections. */
export async function withRuntime(work: (runtime: Runtime) => Promise<void>): Promise<void> {
  const runtime = await openRuntime('suppression-list-cli');
  try {
    await work(runtime);
  } finally {
    await runtime.db.close();
  }
}
