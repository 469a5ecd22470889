import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from '../../src/metrics.js';
import { routePatternOf } from './route-pattern.js';

/** Observes every response in `http_request_duration_seconds{method,route,status}`. */
export function httpMetrics(metrics: Metrics) {
  return function observeRequest(req: Request, res: Response, next: NextFunction): void {
    const end = metrics.httpRequestDuration.startTimer();
    res.once('finish', () => {
      end({ method: req.method, route: routePatternOf(req), status: String(res.statusCode) });
    });
    next();
  };
}
