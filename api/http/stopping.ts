import type { RequestHandler } from 'express';

/**
 * While the process stops, every answer closes its connection: a client or a load balancer holding
 * a keep-alive connection opens its next one elsewhere instead of sending to a listener about to go.
 */
export function closeConnectionsWhen(stopping: () => boolean): RequestHandler {
  return (_req, res, next) => {
    if (stopping()) res.set('Connection', 'close');
    next();
  };
}
