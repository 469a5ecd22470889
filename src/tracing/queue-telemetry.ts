import { BullMQOtel } from 'bullmq-otel';
import { TRACER_NAME, tracingEnabled } from './tracing.js';

let telemetry: BullMQOtel | undefined;

/**
 * BullMQ's own OpenTelemetry support, for a queue's or a worker's options while tracing is on (or
 * `always`, for a producer in a process whose OpenTelemetry SDK is its host's own): a producer puts
 * the active trace context in each job it adds, and the worker that takes the job runs it in a span
 * continuing that trace. Off, the options carry nothing and BullMQ traces nothing.
 */
export function queueTelemetry(always = false): { telemetry?: BullMQOtel } {
  if (!always && !tracingEnabled()) return {};
  telemetry ??= new BullMQOtel(TRACER_NAME);
  return { telemetry };
}
