import { randomBytes } from 'node:crypto';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventProducer } from '../../src/events/event-producer.js';
import { EVENTS_QUEUE } from '../../src/queues.js';
import { createWebhook } from '../../src/webhooks/webhook-repository.js';
import { newAccount, type TestAccount } from '../support/accounts.js';
import { startServiceProcess, type ServiceProcess } from '../support/built-service.js';
import { uniqueEmails } from '../support/emails.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { sharedBuild } from '../support/shared-build.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { bounceEvent } from '../support/test-events.js';
import { createTestQueue, eventually, type TestQueue } from '../support/test-queue.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

let built: { dir: string };
let database: TestDatabase;
let events: TestQueue;
let collector: OtlpReceiver;
let api: ServiceProcess;
let env: Record<string, string>;
const workers: ServiceProcess[] = [];

beforeAll(async () => {
  let dir: string;
  [dir, database, events, collector] = await Promise.all([
    sharedBuild(),
    createTestDatabase(),
    createTestQueue(EVENTS_QUEUE),
    startOtlpReceiver(),
  ]);
  built = { dir };
  env = {
    DATABASE_URL: database.url,
    REDIS_URL: events.redisUrl,
    QUEUE_PREFIX: events.prefix,
    // The receiver is on loopback: a development setting, which production refuses.
    NODE_ENV: 'development',
    WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Spans leave within a tenth of a second rather than the default five.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  api = await startServiceProcess(built, 'api/main.js', { ...env, HOST: '127.0.0.1', PORT: '0' });
});

afterAll(async () => {
  await Promise.all([api, ...workers].map((service) => service?.stop()));
  await collector?.close();
  await events?.cleanup();
  await database?.drop();
});

async function startWorker(): Promise<void> {
  workers.push(await startServiceProcess(built, 'workers/main.js', env));
}

async function workerRunning(): Promise<void> {
  if (workers.length === 0) await startWorker();
}

/** A caller's own span, as a mail system that traces would send it in `traceparent`. */
function callerSpan(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** Waits for something the collector or a process's log will hold once spans or lines arrive. */
function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  return eventually(() => Promise.resolve(condition()), timeoutMs, what);
}

function spansOf(traceId: string): ReceivedSpan[] {
  return collector.spans.filter((span) => span.traceId === traceId);
}

function childrenOf(parent: ReceivedSpan): ReceivedSpan[] {
  return collector.spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);
}

async function spanWhere(what: string, match: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
  await until(() => collector.spans.some(match), 20_000, what);
  return collector.spans.find(match) as ReceivedSpan;
}

async function subscribedAccount(): Promise<TestAccount & { receiver: WebhookReceiver }> {
  const account = await newAccount(database.db);
  const receiver = await startWebhookReceiver();
  const webhook = await createWebhook(database.db, {
    accountId: account.accountId,
    endpoint: receiver.url,
    events: ['suppression.added'],
  });
  receiver.secret = webhook.signingSecret;
  return { ...account, receiver };
}

describe('traces exported over OTLP by the built service', () => {
  it('when a check arrives with a traceparent, then its server span continues the caller’s trace, its statements are its children, and its log line names the trace', async () => {
    const { token } = await newAccount(database.db);
    const caller = callerSpan();
    const emails = uniqueEmails(3);

    const response = await fetch(`${api.url}/suppressions/check`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        traceparent: caller.traceparent,
      },
      body: JSON.stringify({ emails }),
    });
    expect(response.status).toBe(200);

    const server = await spanWhere(
      'the check’s server span',
      (span) => span.traceId === caller.traceId && span.kind === SERVER,
    );
    expect(server).toMatchObject({
      service: 'suppression-list-api',
      parentSpanId: caller.spanId,
      name: 'POST /suppressions/check',
      attributes: expect.objectContaining({ 'http.route': '/suppressions/check', 'http.response.status_code': 200 }),
    });
    await until(() => childrenOf(server).some((span) => span.kind === CLIENT), 10_000, 'a statement span');
    const statement = childrenOf(server).find((span) => span.kind === CLIENT) as ReceivedSpan;
    expect(statement.attributes).toMatchObject({ 'db.system.name': 'postgresql', 'db.operation.name': 'SELECT' });
    // Parameters are never recorded: the addresses checked are not in any span.
    const exported = JSON.stringify(spansOf(caller.traceId));
    for (const email of emails) expect(exported).not.toContain(email);

    await until(
      () => api.logs.some((line) => line['trace_id'] === caller.traceId && line['route'] === '/suppressions/check'),
      5000,
      'the request’s log line',
    );
    const line = api.logs.find((entry) => entry['trace_id'] === caller.traceId) as Record<string, unknown>;
    expect(line['span_id']).toBe(server.spanId);
  });

  it('when several events go out in one statement, then its span is a child of one event’s span and linked to every other, and the webhook delivery continues that trace', async () => {
    const { accountId, receiver } = await subscribedAccount();
    const producer = createEventProducer({ connection: events.redisUrl, prefix: events.prefix });
    const emails = uniqueEmails(5);
    try {
      // Queued before any worker runs, so that the worker takes them all into one batch.
      await producer.publishMany(emails.map((email) => bounceEvent(accountId, email)));
    } finally {
      await producer.close();
    }
    await startWorker();

    const batch = await spanWhere('the batch’s span', (span) => span.name === 'record events');
    expect(batch.attributes['messaging.batch.message_count']).toBe(5);
    const processed = await spanWhere(
      'the first event’s job span',
      (span) => span.spanId === batch.parentSpanId && span.kind === CONSUMER,
    );
    expect(processed.traceId).toBe(batch.traceId);
    await until(
      () => collector.spans.filter((span) => span.kind === CONSUMER && span.name.includes(EVENTS_QUEUE)).length === 5,
      10_000,
      'the five events’ job spans',
    );
    const others = collector.spans.filter(
      (span) => span.kind === CONSUMER && span.name.includes(EVENTS_QUEUE) && span.spanId !== processed.spanId,
    );
    // Each event is a trace of its own (nothing traced published them); the batch links the other four.
    expect(new Set(others.map((span) => span.traceId)).size).toBe(4);
    expect(batch.links.map((link) => link.spanId).sort()).toEqual(others.map((span) => span.spanId).sort());
    expect(batch.links).toHaveLength(4);
    await until(() => childrenOf(batch).some((span) => span.kind === CLIENT), 10_000, 'the statement span');
    expect(childrenOf(batch).find((span) => span.kind === CLIENT)?.attributes['db.system.name']).toBe('postgresql');

    await until(() => receiver.accepted().length === 5, 20_000, 'five deliveries');
    const postsOf = () => spansOf(batch.traceId).filter((span) => span.kind === CLIENT && span.name === 'POST');
    await until(() => postsOf().length === 5, 20_000, 'five delivery spans in the batch’s trace');
    const posts = postsOf();
    for (const post of posts) {
      // A job's span ends, and is exported, after the request made inside it.
      const job = await spanWhere('the delivery job’s span', (span) => span.spanId === post.parentSpanId);
      expect(job).toMatchObject({ kind: CONSUMER, traceId: batch.traceId, parentSpanId: batch.spanId });
      expect(post.attributes['http.response.status_code']).toBe(200);
    }
    await receiver.close();
  });

  it('when a bounce arrives through POST /events with a traceparent, then one trace spans the request, the queue, the worker, PostgreSQL and the webhook delivery', async () => {
    await workerRunning();
    const { accountId, token, receiver } = await subscribedAccount();
    const caller = callerSpan();
    const email = uniqueEmails(1)[0] as string;

    const response = await fetch(`${api.url}/events`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        traceparent: caller.traceparent,
      },
      body: JSON.stringify({ events: [bounceEvent(accountId, email)] }),
    });
    expect(response.status).toBe(202);

    const request = await spanWhere('the request', (span) => span.traceId === caller.traceId && span.kind === SERVER);
    expect(request).toMatchObject({
      name: 'POST /events',
      parentSpanId: caller.spanId,
      service: 'suppression-list-api',
    });
    const queued = await spanWhere(
      'the job queued',
      (span) => span.traceId === caller.traceId && span.kind === PRODUCER && span.parentSpanId === request.spanId,
    );
    const job = await spanWhere(
      'the worker’s span for the job',
      (span) => span.traceId === caller.traceId && span.kind === CONSUMER && span.parentSpanId === queued.spanId,
    );
    expect(job).toMatchObject({ service: 'suppression-list-worker' });
    const write = await spanWhere(
      'the batch’s write',
      (span) => span.traceId === caller.traceId && span.name === 'record events' && span.parentSpanId === job.spanId,
    );
    await until(() => childrenOf(write).some((span) => span.kind === CLIENT), 10_000, 'its statements');
    expect(
      childrenOf(write)
        .filter((span) => span.kind === CLIENT)
        .map((span) => span.attributes['db.system.name']),
    ).toContain('postgresql');

    await until(() => receiver.accepted().length === 1, 20_000, 'the webhook delivery');
    const post = await spanWhere(
      'the delivery’s request',
      (span) => span.traceId === caller.traceId && span.kind === CLIENT && span.name === 'POST',
    );
    const delivery = await spanWhere('the delivery job', (span) => span.spanId === post.parentSpanId);
    expect(delivery).toMatchObject({ kind: CONSUMER, parentSpanId: write.spanId, service: 'suppression-list-worker' });
    expect(post.attributes).toMatchObject({ 'server.address': '127.0.0.1', 'http.response.status_code': 200 });

    // Every span of the trace hangs from the caller's, through parents the trace holds.
    const trace = spansOf(caller.traceId);
    const ids = new Set(trace.map((span) => span.spanId));
    for (const span of trace) expect(span.parentSpanId === caller.spanId || ids.has(span.parentSpanId)).toBe(true);
    expect(new Set(trace.map((span) => span.service))).toEqual(
      new Set(['suppression-list-api', 'suppression-list-worker']),
    );
    await receiver.close();
  });

  it('when a mail system’s own traced Node process publishes with the library and tracing: true, then the worker’s span continues its trace', async () => {
    await workerRunning();
    const { accountId } = await newAccount(database.db);
    // The host's own OpenTelemetry setup, as a mail system written in Node would have it.
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      const producer = createEventProducer({ connection: events.redisUrl, prefix: events.prefix, tracing: true });
      const sending = provider.getTracer('mail-system').startSpan('send the newsletter');
      try {
        await context.with(trace.setSpan(context.active(), sending), () =>
          producer.publish(bounceEvent(accountId, uniqueEmails(1)[0] as string)),
        );
      } finally {
        sending.end();
        await producer.close();
      }
      const { traceId, spanId } = sending.spanContext();
      const added = exporter
        .getFinishedSpans()
        .find((span) => span.spanContext().traceId === traceId && span.parentSpanContext?.spanId === spanId);
      expect(added?.kind).toBe(SpanKind.PRODUCER);

      const job = await spanWhere(
        'the worker’s span for the job',
        (span) => span.traceId === traceId && span.kind === CONSUMER,
      );
      expect(job).toMatchObject({ parentSpanId: added?.spanContext().spanId, service: 'suppression-list-worker' });
    } finally {
      trace.disable();
      context.disable();
      propagation.disable();
      await provider.shutdown();
    }
  });
});
