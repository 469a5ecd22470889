import { SpanKind, type Attributes } from '@opentelemetry/api';
import type pg from 'pg';
import { childSpan } from './tracing.js';

/** The statement's first word (`SELECT`, `INSERT`, `WITH`): a span name that holds no value. */
function operationOf(text: string): string {
  const match = /^\s*([A-Za-z]+)/.exec(text);
  return match ? match[1]!.toUpperCase() : 'QUERY';
}

function textOf(query: unknown): string {
  if (typeof query === 'string') return query;
  const text = (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

/** The server's identity, once per pool: the attributes every statement span of it carries. */
export function databaseAttributes(url: string): Attributes {
  try {
    const parsed = new URL(url);
    return {
      'db.system.name': 'postgresql',
      'db.namespace': decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres',
      'server.address': parsed.hostname,
      'server.port': Number(parsed.port || 5432),
    };
  } catch {
    return { 'db.system.name': 'postgresql' };
  }
}

/**
 * Runs one statement inside a client span named after its operation, with its text (parameters are
 * never recorded: they hold addresses). The span is a child of the active span (a request's, a job's,
 * a batch's); a statement outside any (a poll) makes none.
 */
export function statementSpan<T>(attributes: Attributes, query: unknown, run: () => Promise<T>): Promise<T> {
  const text = textOf(query);
  const operation = operationOf(text);
  return childSpan(
    operation,
    { kind: SpanKind.CLIENT, attributes: { ...attributes, 'db.operation.name': operation, 'db.query.text': text } },
    run,
  );
}

/**
 * Gives a checked-out client's `query` a span per statement for as long as a transaction holds it;
 * the returned function puts the client's own back before it returns to the pool.
 */
export function traceClient(client: pg.PoolClient, attributes: Attributes): () => void {
  const ownProperty = Object.getOwnPropertyDescriptor(client, 'query');
  const own = client.query.bind(client) as (...args: unknown[]) => unknown;
  const traced = (...args: unknown[]): unknown => {
    const run = () => own(...args);
    // A submittable (a cursor) or a call with a callback does not return the statement's end.
    const submittable = typeof (args[0] as { submit?: unknown } | null)?.submit === 'function';
    if (submittable || typeof args[args.length - 1] === 'function') return run();
    return statementSpan(attributes, args[0], run as () => Promise<unknown>);
  };
  client.query = traced as typeof client.query;
  return () => {
    if (ownProperty) Object.defineProperty(client, 'query', ownProperty);
    else delete (client as Partial<pg.PoolClient>).query;
  };
}
