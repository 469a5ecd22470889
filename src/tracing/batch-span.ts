import { ROOT_CONTEXT, SpanKind, trace, type Link, type SpanContext } from '@opentelemetry/api';
import { endAfter, traceparentOf, tracer } from './tracing.js';

/**
 * Runs a write that carries many traced items (a batch of events in one statement) in a span of its
 * own: a child of the first item's span, so the statement sits inside that item's trace, and linked
 * to every other item's span, so each trace can find the write that carried it. `run` receives the
 * span's `traceparent`, for what the write leaves behind to carry on (its webhook changes).
 */
export function batchSpan<T>(
  name: string,
  parents: readonly (SpanContext | undefined)[],
  run: (traceparent: string | undefined) => Promise<T>,
): Promise<T> {
  const [first, ...rest] = parents;
  const parent = first ? trace.setSpanContext(ROOT_CONTEXT, first) : ROOT_CONTEXT;
  const links: Link[] = rest
    .filter((context): context is SpanContext => context !== undefined)
    .map((context) => ({ context }));
  return tracer().startActiveSpan(
    name,
    { kind: SpanKind.INTERNAL, links, attributes: { 'messaging.batch.message_count': parents.length } },
    parent,
    (span) => endAfter(span, () => run(traceparentOf(trace.setSpan(parent, span)))),
  );
}
