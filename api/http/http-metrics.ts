import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from '../../src/metrics.js';
import { routePatternOf } from './route-pattern.js';

const STARTED = Symbol('startedAt');

type Timed = Response & { [STARTED]?: number };

/**
 * Observes every response in `http_request_duration_seconds{method,route,status}`, and counts the
 * requests under way in `http_requests_in_flight` (a request leaves it when its connection closes
 * too, answered or not).
 */
export function httpMetrics(metrics: Metrics) {
  // One listener function for every response (it finds its request through `res.req`), rather than
  // a timer closure and a once-wrapper made for each request.
  function observe(this: Timed): void {
    const startedAt = this[STARTED] ?? performance.now();
    const labels = { method: this.req.method, route: routePatternOf(this.req), status: String(this.statusCode) };
    metrics.httpRequestDuration.observe(labels, (performance.now() - startedAt) / 1000);
  }
  function leave(): void {
    metrics.httpRequestsInFlight.dec();
  }
  return function observeRequest(_req: Request, res: Response, next: NextFunction): void {
    (res as Timed)[STARTED] = performance.now();
    res.on('finish', observe);
    metrics.httpRequestsInFlight.inc();
    res.once('close', leave);
    next();
  };
}
