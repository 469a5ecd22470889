import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { NextFunction, Request, Response, Router } from 'express';
import { nameMount } from '../http/route-pattern.js';
import { pageSecurityHeaders } from '../http/security-headers.js';
import { basicPassword, bearerToken, sameSecret, unauthorized } from './tokens.js';

export const ADMIN_PATH = '/admin/queues';
const REALM = 'Basic realm="suppression-list"';

/** Bearer token, or HTTP Basic whose password is the token (any user name), so a browser can log in. */
function adminGuard(token: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = bearerToken(req) ?? basicPassword(req);
    if (given !== undefined && sameSecret(given, token)) {
      next();
      return;
    }
    res.set('WWW-Authenticate', REALM);
    throw unauthorized('queue dashboard', 'the admin token (Bearer, or Basic auth with the token as password)');
  };
}

/**
 * The queue dashboard at /admin/queues, behind the admin token: an application of its own (its
 * pages, assets and API), so it is mounted whole rather than declared as endpoints, and not in the
 * reference.
 */
export function mountQueueDashboard(router: Router, token: string, queues: readonly Queue[]): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter });
  router.use(
    ADMIN_PATH,
    nameMount(ADMIN_PATH),
    pageSecurityHeaders(),
    adminGuard(token),
    serverAdapter.getRouter() as Router,
  );
}
