import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { tracer } from '../../src/tracing/tracing.js';
import { routePatternOf } from './route-pattern.js';

/**
 * A server span for every request, continuing the caller's trace from its `traceparent`. Its name
 * and `http.route` are the route's pattern, set when the answer is written; the concrete path is
 * never recorded, since it may hold an address. The request's and the response's events run in
 * the span's context, so a body read or a late write stays in the trace.
 */
export function requestTracing(): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer().startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    const active = trace.setSpan(parent, span);
    context.bind(active, req);
    context.bind(active, res);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const route = routePatternOf(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (!res.writableFinished) span.setAttribute('http.response.cut', true);
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(active, next);
  };
}
