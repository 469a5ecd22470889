import { emailProblem, normalizeEmail } from '../domain/email.js';
import { errorMessage } from '../error-codes.js';
import { AppError } from '../errors.js';
import { InvalidEventError, parseSuppressionEvent, type SuppressionEvent } from '../events/event-schema.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { Feed } from './feed.js';
import { FeedUnavailableError, FeedVerificationError, InvalidPayloadError } from './feed-errors.js';
import type { MappedPayload } from './feed-mapping.js';
import type { FeedRequest } from './feed-request.js';
import { feedProvider } from './providers/index.js';
import type { ReplayGuard } from './replay-guard.js';
import type { SnsClient } from './sns/certificates.js';

export interface FeedReceiverOptions {
  /** `FEEDS_EMAIL_ID_TAG`: the message tag or metadata key that carries the sender's UUID for it. */
  emailIdTag: string;
  sns: SnsClient;
  /** Where replay tokens (Mailgun's) are reserved; without it, requests that carry one cannot be taken. */
  replays?: ReplayGuard;
  logger: Logger;
}

/** Where the events of verified requests go, and where they are counted. */
export interface FeedSink {
  /**
   * Queues events that are already validated; resolves once Redis has taken every one. Without it, a
   * request with events is answered 503.
   */
  publish?: (events: readonly SuppressionEvent[]) => Promise<unknown>;
  metrics: Metrics;
}

/** What a request came to, as its `feed_delivery` answer says. */
export interface FeedDelivery {
  queued: number;
  /** Events acknowledged without a record: the provider's other kinds, and addresses that cannot be stored. */
  ignored: number;
}

export interface FeedReceiver {
  /**
   * Verifies a request as its provider documents, reserves its replay token, maps it to events,
   * validates and queues them. Throws AppError `invalid_signature`, `invalid_payload` or
   * `service_unavailable`, and then nothing of the request is queued and its token is given back.
   */
  receive(feed: Feed, request: FeedRequest, sink: FeedSink): Promise<FeedDelivery>;
}

/** A verified request's events, each validated, and what is acknowledged without a record. */
interface Received {
  events: SuppressionEvent[];
  /** The provider's names of the events acknowledged without a record (deliveries, opens...). */
  ignored: string[];
  /** Recipients whose address this service cannot store; acknowledged, so the provider does not retry. */
  unusable: number;
  replayToken?: string;
}

/** The events, each validated once; an address no mail can be sent to is dropped and counted. */
function queueable(mapped: MappedPayload, feedId: string): Omit<Received, 'replayToken'> {
  const events: SuppressionEvent[] = [];
  let unusable = 0;
  for (const [index, event] of mapped.events.entries()) {
    if (emailProblem(normalizeEmail(event.email)) !== null) {
      unusable += 1;
      continue;
    }
    try {
      // The feed is named in each event, so that the history can say which feed reported it.
      events.push(parseSuppressionEvent({ ...event, feed_id: feedId }));
    } catch (error) {
      if (!(error instanceof InvalidEventError)) throw error;
      throw new InvalidPayloadError(`Recipient ${index} cannot be recorded: ${error.message}.`);
    }
  }
  return { events, ignored: mapped.ignored, unusable };
}

/** The answer to a request refused before anything of it was queued: each feed error as its AppError. */
function refusal(error: unknown, feed: Feed, metrics: Metrics): unknown {
  if (error instanceof FeedVerificationError) {
    metrics.feedVerificationFailures.inc({ provider: feed.provider, reason: error.reason });
    return new AppError('invalid_signature', errorMessage('invalid_signature', { reason: error.message }));
  }
  if (error instanceof InvalidPayloadError) {
    return new AppError('invalid_payload', errorMessage('invalid_payload', { problem: error.message }));
  }
  if (error instanceof FeedUnavailableError) {
    return new AppError('service_unavailable', `${error.message}. Try again shortly.`, { cause: error });
  }
  return error;
}

/** A queued event's kind in `feed_events_total`. */
function kindOf(event: SuppressionEvent): string {
  return event.type === 'complaint' ? 'complaint' : `${event.bounce?.type ?? 'undetermined'}_bounce`;
}

/** An ignored event's kind: the provider's own name, kept to a short token so it stays a label. */
function ignoredKind(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '_')
      .slice(0, 40) || 'unnamed'
  );
}

function count(feed: Feed, received: Received, metrics: Metrics): void {
  const provider = feed.provider;
  for (const event of received.events) metrics.feedEvents.inc({ provider, kind: kindOf(event) });
  for (const name of received.ignored) metrics.feedEvents.inc({ provider, kind: `ignored:${ignoredKind(name)}` });
  if (received.unusable > 0) metrics.feedEvents.inc({ provider, kind: 'unusable_address' }, received.unusable);
}

async function publish(events: readonly SuppressionEvent[], sink: FeedSink): Promise<void> {
  if (events.length === 0) return;
  if (!sink.publish) throw new AppError('service_unavailable', 'The event queue is not available.');
  try {
    await sink.publish(events);
  } catch (error) {
    throw new AppError('service_unavailable', 'The event queue is unavailable. Try again shortly.', { cause: error });
  }
}

export function createFeedReceiver(options: FeedReceiverOptions): FeedReceiver {
  const { replays, logger } = options;

  async function verifyAndMap(feed: Feed, request: FeedRequest): Promise<Received> {
    const provider = feedProvider(feed.provider);
    const verified = await provider.verify(feed.verification, request, { feedId: feed.id, sns: options.sns, logger });
    const { replayToken } = verified;
    if (replayToken !== undefined) {
      if (!replays) throw new FeedUnavailableError(`${provider.title} feeds need Redis to remember their tokens`);
      if (!(await replays.reserve(feed.id, replayToken))) {
        throw new FeedVerificationError('replay', 'this signature token was already used');
      }
    }
    try {
      const mapped =
        verified.text === null
          ? { events: [], ignored: [] }
          : provider.map(verified.text, verified.delivery, {
              accountId: feed.accountId,
              emailIdTag: options.emailIdTag,
              scopeFrom: feed.scopeFrom,
            });
      return { ...queueable(mapped, feed.id), replayToken };
    } catch (error) {
      await release(feed, replayToken);
      throw error;
    }
  }

  /** Gives back the token of a request that queued nothing: the provider retries it with the same token. */
  async function release(feed: Feed, replayToken: string | undefined): Promise<void> {
    if (replayToken === undefined || !replays) return;
    try {
      await replays.release(feed.id, replayToken);
    } catch (error) {
      // The request's own failure is its answer. The token stays taken until it expires, and until
      // then the provider's retries of it are refused as replays.
      logger.warn({ err: error, feed_id: feed.id }, 'feed token not released');
    }
  }

  return {
    async receive(feed, request, sink) {
      let received: Received;
      try {
        received = await verifyAndMap(feed, request);
      } catch (error) {
        throw refusal(error, feed, sink.metrics);
      }
      try {
        await publish(received.events, sink);
      } catch (error) {
        await release(feed, received.replayToken);
        throw error;
      }
      count(feed, received, sink.metrics);
      return { queued: received.events.length, ignored: received.ignored.length + received.unusable };
    },
  };
}
