import type { Queue } from 'bullmq';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  poolGauges,
  queueGauges,
  readinessGauge,
  replicaGauges,
  webhookBacklogGauge,
  type ReadinessChecks,
} from './scrape-gauges.js';
import type { ReadReplicas } from './db/read-replicas.js';
import { filterGauges, type FilterReadings } from './filter-gauges.js';

/**
 * The service's Prometheus metrics, on a registry of their own (one per app or process, so tests
 * never collide). `npm start` runs the API and the workers in one process and shares one instance.
 */
export interface Metrics {
  readonly registry: Registry;
  /** `http_request_duration_seconds{method,route,status}`. */
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  /** `http_requests_in_flight`: requests received and not yet answered or abandoned. */
  readonly httpRequestsInFlight: Gauge;
  /** `mail_messages_total{outcome}`: mail messages read (`read`), read before (`duplicate`) or `unreadable`. */
  readonly mailMessages: Counter<'outcome'>;
  /** `mail_records_total{kind,outcome}`: the records of the messages read, by kind and what came of each. */
  readonly mailRecords: Counter<'kind' | 'outcome'>;
  /** `imap_messages_total{outcome}`: messages of the IMAP mailbox queued, set aside as `too_large`, or whose queueing failed. */
  readonly imapMessages: Counter<'outcome'>;
  /**
   * `imap_connected{mailbox}`: 1 while the IMAP poller is logged in to its mailbox, 0 while it
   * connects again; absent from a process that reads no mailbox.
   */
  readonly imapConnected: Gauge<'mailbox'>;
  /** `smtp_messages_total{outcome}`: what the mail listener answered to each message (and each refused recipient). */
  readonly smtpMessages: Counter<'outcome'>;
  /** `smtp_connections`: connections the mail listener holds now. */
  readonly smtpConnections: Gauge;
  /** `smtp_connections_refused_total`: connections the mail listener answered 421 because it held SMTP_MAX_CONNECTIONS. */
  readonly smtpConnectionsRefused: Counter;
  /** `suppression_events_processed_total{outcome}`: event jobs completed by outcome, or `failed`. */
  readonly eventsProcessed: Counter<'outcome' | 'message_scope'>;
  /** `bounces_classified_total{category,provider}`: bounces recorded (duplicates not), by category and the provider that reported them. */
  readonly bouncesClassified: Counter<'category' | 'provider'>;
  /** `suppression_batch_entries_total{outcome}`: entries of completed batch jobs by outcome. */
  readonly batchEntries: Counter<'outcome'>;
  /** `suppression_check_addresses_total{result}`: addresses the check answered for, suppressed or sendable. */
  readonly checkAddresses: Counter<'result'>;
  /** `suppression_filter_fallbacks_total{reason}`: checks and lookups that asked the database about every address, and why. */
  readonly filterFallbacks: Counter<'reason'>;
  /** `suppression_filter_answers_total{answer}`: addresses the filter answered, `absent`, or "maybe" and then `cached`, `cached_absent`, `confirmed` or `unconfirmed`. */
  readonly filterAnswers: Counter<'answer'>;
  /** `suppression_filter_builds_total{reason}`, `suppression_filter_changes_applied_total` and `suppression_filter_rounds_total`. */
  readonly filterBuilds: Counter<'reason'>;
  readonly filterChangesApplied: Counter;
  readonly filterRounds: Counter;
  /** Reports the check filter's state in `suppression_filter_*` gauges, read at each scrape. */
  trackCheckFilter(filter: FilterReadings): void;
  /** `posted_events_total{type}`: events queued through `POST /events`, by type. */
  readonly postedEvents: Counter<'type'>;
  /** `rate_limit_rejections_total`: requests answered 429. */
  readonly rateLimitRejections: Counter;
  /** `rate_limit_redis_failures_total`: rate-limit checks that failed open because Redis did not answer. */
  readonly rateLimitRedisFailures: Counter;
  /** `feed_requests_total{provider,status}`: provider feed requests by the status answered. */
  readonly feedRequests: Counter<'provider' | 'status'>;
  /** `feed_events_total{provider,kind}`: events of verified feed requests, by what became of them. */
  readonly feedEvents: Counter<'provider' | 'kind'>;
  /** `feed_verification_failures_total{provider,reason}`: feed requests refused as not the provider's. */
  readonly feedVerificationFailures: Counter<'provider' | 'reason'>;
  /** `webhook_deliveries_total{outcome}`: webhook delivery attempts by outcome (see attempt-delivery.ts). */
  readonly webhookDeliveries: Counter<'outcome'>;
  /**
   * Reports `webhook_oldest_undelivered_change_seconds`, as `readAge` reads it at each scrape: the
   * webhooks' query, handed in so that the metrics import no feature.
   */
  trackWebhookBacklog(readAge: () => Promise<number>): void;
  /** Reports this pool in `db_pool_connections_*` / `db_pool_waiting_requests`. */
  trackPool(pool: pg.Pool): void;
  /**
   * `db_reads_total{target,replica,reason}`: the reads that may go to a replica (lookups, checks, the
   * list, the export), by where they were served; a primary's read says why it was not a replica's.
   */
  readonly dbReads: Counter<'target' | 'replica' | 'reason'>;
  /** Reports these replicas' state, lag and pools in `db_replica_*`. */
  trackReplicas(replicas: ReadReplicas): void;
  /**
   * Reports this queue's job counts in `bullmq_queue_jobs{queue,state}` and the age of its oldest
   * waiting job in `bullmq_queue_oldest_waiting_job_seconds{queue}`.
   */
  trackQueue(queue: Queue): void;
  /** Reports the readiness checks (`database`, `redis`) in `readiness_check_ok{check}`, run at each scrape. */
  trackReadiness(checks: ReadinessChecks): void;
  /** Adds Node.js process metrics (`process_*`, `nodejs_*`) once. */
  collectProcessMetrics(): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const pools = new Set<pg.Pool>();
  const queues = new Set<Queue>();
  let processMetrics = false;
  let backlogTracked = false;
  let trackedReplicas: ReadReplicas | undefined;
  let readinessChecks: ReadinessChecks | undefined;
  let filterTracked = false;

  poolGauges(registry, pools);
  queueGauges(registry, queues);

  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration in seconds by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    httpRequestsInFlight: new Gauge({
      name: 'http_requests_in_flight',
      help: 'HTTP requests received and not yet answered or abandoned by their client.',
      registers: [registry],
    }),
    mailMessages: new Counter({
      name: 'mail_messages_total',
      help: 'Mail messages (bounces, complaints, automatic replies, others) taken from the mail queue, by outcome: read, duplicate (the same bytes read before) or unreadable.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    mailRecords: new Counter({
      name: 'mail_records_total',
      help: 'Records of the mail messages read, by kind (bounce, delay, complaint, auto_reply, not_a_report) and outcome (event, unverified, recorded, no_recipient).',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    imapMessages: new Counter({
      name: 'imap_messages_total',
      help: 'Messages of the IMAP mailbox (IMAP_URL), by outcome: queued, too_large (flagged and left, not queued) or queue_failed (Redis did not take it: left for the next poll).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    smtpMessages: new Counter({
      name: 'smtp_messages_total',
      help: 'Messages the SMTP/LMTP listener was handed, by outcome: queued, refused_size, queue_failed, rate_limited, aborted (the client left during DATA); and refused_rcpt for each recipient outside the bounce domains.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    imapConnected: new Gauge({
      name: 'imap_connected',
      help: 'Whether the IMAP poller is logged in to its mailbox (IMAP_URL without its credentials): 1, or 0 while it connects again after a failure.',
      labelNames: ['mailbox'] as const,
      registers: [registry],
    }),
    smtpConnections: new Gauge({
      name: 'smtp_connections',
      help: 'Connections the SMTP/LMTP listener holds now.',
      registers: [registry],
    }),
    smtpConnectionsRefused: new Counter({
      name: 'smtp_connections_refused_total',
      help: 'Connections the SMTP/LMTP listener answered 421 and closed because it held SMTP_MAX_CONNECTIONS already.',
      registers: [registry],
    }),
    eventsProcessed: new Counter({
      name: 'suppression_events_processed_total',
      help: 'Bounce, complaint and reactivation event jobs processed, by outcome (failed: an attempt failed) and by whether the message named a scope (message_scope: named or none).',
      labelNames: ['outcome', 'message_scope'] as const,
      registers: [registry],
    }),
    bouncesClassified: new Counter({
      name: 'bounces_classified_total',
      help: 'Bounces recorded, by the category the classifier gave them and the provider that reported them (none: published without one; other: a name of the mail system’s own).',
      labelNames: ['category', 'provider'] as const,
      registers: [registry],
    }),
    batchEntries: new Counter({
      name: 'suppression_batch_entries_total',
      help: 'Entries of completed batch jobs, by outcome.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    checkAddresses: new Counter({
      name: 'suppression_check_addresses_total',
      help: 'Addresses answered by POST /suppressions/check (each valid address once per request), by result: suppressed or sendable.',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    filterFallbacks: new Counter({
      name: 'suppression_filter_fallbacks_total',
      help: 'Checks and lookups by address that asked the database about every address instead of the check filter, by reason: building (not built yet, or built again), tail_failed (its round of changes failed), tail_slow (no round within a second).',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    filterAnswers: new Counter({
      name: 'suppression_filter_answers_total',
      help: 'Addresses the check filter answered for, by answer: absent (no query), cached or cached_absent (a "maybe" answered from the entry cache with its entry, or as having none, no query), confirmed or unconfirmed (a "maybe" the database found an entry for, or not).',
      labelNames: ['answer'] as const,
      registers: [registry],
    }),
    filterBuilds: new Counter({
      name: 'suppression_filter_builds_total',
      help: 'Builds of the check filter from the table, by reason: start, capacity, stale, false_positives, server_restart, fell_behind.',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    filterChangesApplied: new Counter({
      name: 'suppression_filter_changes_applied_total',
      help: 'Keys added and entries removed that the check filter read from the changes.',
      registers: [registry],
    }),
    filterRounds: new Counter({
      name: 'suppression_filter_rounds_total',
      help: 'Rounds of changes the check filter began reading from the primary, failed ones too: one statement each, more past a page of changes.',
      registers: [registry],
    }),
    trackCheckFilter(filter) {
      if (filterTracked) return;
      filterTracked = true;
      filterGauges(registry, filter);
    },
    postedEvents: new Counter({
      name: 'posted_events_total',
      help: 'Events queued through POST /events, by type: bounce, complaint or reactivation.',
      labelNames: ['type'] as const,
      registers: [registry],
    }),
    rateLimitRejections: new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests rejected with 429 rate_limit_exceeded.',
      registers: [registry],
    }),
    rateLimitRedisFailures: new Counter({
      name: 'rate_limit_redis_failures_total',
      help: 'Rate-limit checks that failed open because Redis did not answer.',
      registers: [registry],
    }),
    feedRequests: new Counter({
      name: 'feed_requests_total',
      help: 'Provider feed requests, by provider and the HTTP status answered.',
      labelNames: ['provider', 'status'] as const,
      registers: [registry],
    }),
    feedEvents: new Counter({
      name: 'feed_events_total',
      help: 'Events of verified feed requests by provider and kind: queued ones by bounce type or complaint, acknowledged ones by the provider’s name.',
      labelNames: ['provider', 'kind'] as const,
      registers: [registry],
    }),
    feedVerificationFailures: new Counter({
      name: 'feed_verification_failures_total',
      help: 'Feed requests refused as not provably the provider’s, by provider and reason.',
      labelNames: ['provider', 'reason'] as const,
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery jobs by outcome: delivered, retry (failed, to be tried again), failed (for the last time), skipped (webhook disabled), stale (already made).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    trackWebhookBacklog(readAge) {
      if (backlogTracked) return;
      backlogTracked = true;
      webhookBacklogGauge(registry, readAge);
    },
    trackPool(pool) {
      pools.add(pool);
    },
    dbReads: new Counter({
      name: 'db_reads_total',
      help: 'Reads that may go to a read replica (lookups, checks, the list, the export), by target: a replica (named), or the primary with the reason (recent_write, marks_unavailable, no_usable_replica, replica_failed).',
      labelNames: ['target', 'replica', 'reason'] as const,
      registers: [registry],
    }),
    trackReplicas(replicas) {
      if (trackedReplicas) return;
      trackedReplicas = replicas;
      replicaGauges(registry, replicas);
    },
    trackQueue(queue) {
      queues.add(queue);
    },
    trackReadiness(checks) {
      if (readinessChecks) return;
      readinessChecks = checks;
      readinessGauge(registry, checks);
    },
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}
