import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Express, NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { AuthFailureLimit } from '../http/auth-failure-limit.js';
import { nameMount } from '../http/route-pattern.js';
import { sameOriginOnly } from '../http/same-origin.js';
import { pageSecurityHeaders } from '../http/security-headers.js';
import { basicPassword, bearerToken, presentsToken, unauthorized } from './tokens.js';

export const ADMIN_PATH = '/admin/queues';
const REALM = 'Basic realm="suppression-list"';

/**
 * Bearer token, or HTTP Basic whose password is the token (any user name), so a browser can log in;
 * wrong and missing tokens count against the client address's failed-authentication limit.
 */
function adminGuard(token: string, failureLimit: AuthFailureLimit | undefined) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (await presentsToken(req, bearerToken(req) ?? basicPassword(req), token, failureLimit)) {
      next();
      return;
    }
    res.set('WWW-Authenticate', REALM);
    throw unauthorized('queue dashboard', 'the admin token (Bearer, or Basic auth with the token as password)');
  };
}

/**
 * A browser sends the Basic credentials it remembers with any request to the dashboard, whichever
 * page made it: a change (every one of bull-board's is a POST, PUT or DELETE) is taken from the
 * dashboard's own pages only, as the console's are. GET and HEAD change nothing, and stay open to a
 * link from elsewhere (an alert, a runbook).
 */
const changesFromOwnPagesOnly: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    next();
    return;
  }
  sameOriginOnly(req, res, next);
};

export interface QueueDashboardOptions {
  token: string;
  queues: readonly Queue[];
  failureLimit?: AuthFailureLimit | undefined;
}

/**
 * The queue dashboard at /admin/queues, behind the admin token: an application of its own (its
 * pages, assets and API), so it is mounted whole rather than declared as endpoints, and not in the
 * reference.
 */
export function mountQueueDashboard(router: Router, { token, queues, failureLimit }: QueueDashboardOptions): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter });
  const dashboard = serverAdapter.getRouter() as Express;
  // An Express app of bull-board's own, whose settings are not the service's: it would name Express
  // in every answer it makes.
  dashboard.disable('x-powered-by');
  router.use(
    ADMIN_PATH,
    nameMount(ADMIN_PATH),
    pageSecurityHeaders(),
    changesFromOwnPagesOnly,
    adminGuard(token, failureLimit),
    dashboard,
  );
}
