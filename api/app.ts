import express, { type Express } from 'express';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import { authenticate } from './middleware/authenticate.js';
import { errorHandler, methodNotAllowed, notFound } from './middleware/errors.js';
import { suppressionsRouter } from './routes/suppressions.js';

export interface AppOptions {
  db: Database;
  logger: Logger;
  /** How long a key lookup is trusted; a revoked key stops working within this time. */
  authCacheTtlMs?: number;
  bodyLimit?: string;
}

export function createApp(options: AppOptions): Express {
  const bodyLimit = options.bodyLimit ?? '1mb';
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app
    .route('/health')
    .get((_req, res) => {
      res.json({ status: 'ok' });
    })
    .all(methodNotAllowed('GET'));

  app.use(
    '/suppressions',
    authenticate(options.db, options.logger, options.authCacheTtlMs ?? 5000),
    // Resend's SDKs send `Content-Type: application/json` on bodiless GET and DELETE; the parser skips those.
    express.json({ limit: bodyLimit, strict: true }),
    suppressionsRouter(options.db),
  );

  app.use(notFound);
  app.use(errorHandler(options.logger, bodyLimit));
  return app;
}
