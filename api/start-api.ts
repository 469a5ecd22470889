import { hasUsableApiKey } from '../src/db/api-key-repository.js';
import type { Runtime } from '../src/runtime.js';
import { createApp } from './app.js';
import { listen, type RunningServer } from './server.js';

/** Serves the HTTP API of a runtime on the configured host and port. */
export async function startApi({ config, logger, db }: Runtime): Promise<RunningServer> {
  const running = await listen(createApp({ db, logger }), config.HOST, config.PORT);
  logger.info({ url: running.url }, 'API listening');
  if (config.NODE_ENV !== 'production' && !(await hasUsableApiKey(db))) {
    process.stdout.write(
      `\nNo API key exists yet. Create one with:\n\n  npm run cli -- keys create --account <name>\n\nthen call ${running.url}/suppressions with "Authorization: Bearer <token>".\n\n`,
    );
  }
  return running;
}
