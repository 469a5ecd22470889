import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { childSpan } from '../tracing/tracing.js';
import type { Queryable } from '../db/database.js';
import { abandonDelivery, findDeliveryTarget, recordAttempt } from './delivery-repository.js';
import { afterFailure, type DueDelivery } from './delivery.js';
import type { DeliveryJob } from './delivery-queue.js';
import type { EndpointPolicy } from './endpoint-safety.js';
import { postDelivery } from './post-delivery.js';
import { signatureHeaders } from './signing.js';

/** The endpoint policy is WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS and WEBHOOKS_PRIVATE_CIDRS. */
export interface AttemptOptions extends EndpointPolicy {
  /** Waits between the attempts of a round; its length + 1 attempts, then the delivery fails. */
  retryDelaysMs: readonly number[];
  timeoutMs?: number;
}

/**
 * delivered: the endpoint answered 2xx. retry: it did not, and `next` is to be queued. failed: it
 * did not, for the last time this round. skipped: the webhook is disabled, so the delivery is given
 * up unsent. stale: the job was for an attempt that is no longer due (made, replayed, or removed).
 */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'skipped' | 'stale';

export interface AttemptResult {
  outcome: AttemptOutcome;
  next?: { due: DueDelivery; delayMs: number };
}

/** Makes one attempt of a delivery and records it with the delivery's new state. */
export async function attemptDelivery(
  db: Queryable,
  job: DeliveryJob,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const target = await findDeliveryTarget(db, job.deliveryId, job.attempt);
  if (!target) return { outcome: 'stale' };
  if (target.webhookStatus !== 'enabled') {
    await abandonDelivery(db, target.id, job.attempt);
    return { outcome: 'skipped' };
  }
  const sentAt = new Date();
  // The span names the endpoint's host only: a path or query may carry the customer's secret.
  const endpoint = new URL(target.endpoint);
  const result = await childSpan(
    'POST',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': 'POST',
        'server.address': endpoint.hostname,
        'webhook.delivery.id': target.id,
      },
    },
    async (span) => {
      const posted = await postDelivery({
        endpoint: target.endpoint,
        body: target.payload,
        headers: signatureHeaders(target.id, sentAt, target.payload, target.secrets),
        allowPrivate: options.allowPrivate,
        privateCidrs: options.privateCidrs,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      span?.setAttribute('http.response.status_code', posted.statusCode);
      if (posted.statusCode < 200 || posted.statusCode >= 300) span?.setStatus({ code: SpanStatusCode.ERROR });
      return posted;
    },
  );
  const delivered = result.statusCode >= 200 && result.statusCode < 300;
  const next = delivered
    ? { status: 'success' as const, nextAttemptAt: null }
    : afterFailure(job.attempt - target.roundStart, options.retryDelaysMs, new Date());
  const recorded = await recordAttempt(db, {
    deliveryId: target.id,
    attempt: job.attempt,
    httpStatusCode: result.statusCode,
    response: result.response,
    sentAt,
    durationMs: result.durationMs,
    ...next,
  });
  if (!recorded) return { outcome: 'stale' };
  if (next.status === 'attempting') {
    return {
      outcome: 'retry',
      next: {
        due: { deliveryId: target.id, attempt: job.attempt + 1, roundStart: target.roundStart },
        delayMs: Math.max(0, next.nextAttemptAt.getTime() - Date.now()),
      },
    };
  }
  return { outcome: delivered ? 'delivered' : 'failed' };
}
