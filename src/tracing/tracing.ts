import {
  context,
  propagation,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { Config } from '../config.js';

/** The settings that decide whether the service traces, and under what name. */
export type TracingSettings = Partial<
  Pick<
    Config,
    | 'OTEL_SDK_DISABLED'
    | 'OTEL_TRACES_EXPORTER'
    | 'OTEL_EXPORTER_OTLP_ENDPOINT'
    | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    | 'OTEL_SERVICE_NAME'
  >
>;

/** The name spans and the queue's telemetry are recorded under. */
export const TRACER_NAME = 'suppression-list';

let sdk: NodeSDK | undefined;

/**
 * Whether the environment asks for traces: an OTLP endpoint, or an exporter other than `none`,
 * and the SDK not disabled. Unset, nothing is traced and no span is ever made.
 */
export function tracingRequested(env: TracingSettings): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (exporters.length > 0) return !exporters.includes('none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Starts OpenTelemetry's Node SDK for traces when the environment asks for them, configured by the
 * standard `OTEL_*` variables (exporter, endpoint, protocol, headers, sampler, resource, batching).
 * Metrics stay with Prometheus and logs with pino, so the SDK exports traces only. The SDK is
 * loaded only then: a process that does not trace never pays for loading it.
 */
export async function startTracing(serviceName: string, env: TracingSettings): Promise<boolean> {
  if (sdk || !tracingRequested(env)) return sdk !== undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME?.trim() ? {} : { serviceName }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return true;
}

/** Exports the spans still buffered and stops the SDK; nothing to do when tracing is off. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}

/** Checked where a span would be made, so that with tracing off the hot paths make none. */
export function tracingEnabled(): boolean {
  return sdk !== undefined;
}

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/** The active span's context, to be a parent or a link later (a batch's statement). */
export function activeSpanContext(): SpanContext | undefined {
  return trace.getSpanContext(context.active());
}

/** The W3C `traceparent` of a context, as stored beside a row that carries the trace on. */
export function traceparentOf(ctx: Context): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

/** `trace_id` and `span_id` of the active span, for every log line written inside one. */
export function traceLogFields(): Record<string, string> {
  const span = activeSpanContext();
  return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/** Runs `run` as the span's work, then ends the span; a failure is recorded on it and thrown on. */
export async function endAfter<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs `run` in a new span, a child of the active one. Without an active span (a poll, a sweep)
 * nothing is made: a span only has meaning inside the trace of a request or a job.
 */
export function childSpan<T>(
  name: string,
  options: SpanOptions,
  run: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (trace.getSpan(context.active()) === undefined) return run(undefined);
  return tracer().startActiveSpan(name, options, (span) => endAfter(span, () => run(span)));
}
