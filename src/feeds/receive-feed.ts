import { emailProblem, normalizeEmail } from '../domain/email.js';
import { InvalidEventError, parseSuppressionEvent, type SuppressionEventInput } from '../events/event-schema.js';
import type { Logger } from '../logger.js';
import type { Feed } from './feed.js';
import { FeedUnavailableError, FeedVerificationError, headerValue } from './feed-errors.js';
import { InvalidPayloadError, type MappedPayload, type MappingContext } from './feed-mapping.js';
import type { FeedRequest } from './feed-request.js';
import { mapMailgun } from './mailgun-mapping.js';
import { verifyMailgun } from './mailgun-signature.js';
import { mapPostmark } from './postmark-mapping.js';
import { verifyPostmark } from './postmark-credentials.js';
import type { ReplayGuard } from './replay-guard.js';
import { mapResend } from './resend-mapping.js';
import { verifyResend } from './resend-signature.js';
import { mapSendGrid } from './sendgrid-mapping.js';
import { verifySendGrid } from './sendgrid-signature.js';
import { mapSes } from './ses-mapping.js';
import type { SnsClient } from './sns-certificates.js';
import { parseSnsEnvelope } from './sns-envelope.js';
import { verifySns } from './sns-signature.js';

export interface FeedReceiverOptions {
  /** `FEEDS_EMAIL_ID_TAG`: the message tag or metadata key that carries the sender's UUID for it. */
  emailIdTag: string;
  sns: SnsClient;
  /** Where Mailgun tokens are remembered; without it, Mailgun requests cannot be taken. */
  replays?: ReplayGuard;
  logger: Logger;
}

/** A verified request: the events to queue, and what to do once they are. */
export interface ReceivedFeed {
  events: SuppressionEventInput[];
  /** The provider's names of the events acknowledged without a record (deliveries, opens...). */
  ignored: string[];
  /** Recipients whose address this service cannot store; acknowledged, so the provider does not retry. */
  unusable: number;
  /** Runs once every event of the request is queued. */
  afterQueued(): Promise<void>;
}

export interface FeedReceiver {
  /**
   * Verifies a request as its provider documents and maps it to events. Throws FeedVerificationError
   * (not the provider's), InvalidPayloadError (not what it sends) or FeedUnavailableError (retry).
   */
  receive(feed: Feed, request: FeedRequest): Promise<ReceivedFeed>;
}

const nothingToDo = (): Promise<void> => Promise.resolve();

/** The events every one of which can be queued; an address no mail can be sent to is dropped. */
function queueable(mapped: MappedPayload): Pick<ReceivedFeed, 'events' | 'ignored' | 'unusable'> {
  const events: SuppressionEventInput[] = [];
  let unusable = 0;
  for (const [index, event] of mapped.events.entries()) {
    if (emailProblem(normalizeEmail(event.email)) !== null) {
      unusable += 1;
      continue;
    }
    try {
      parseSuppressionEvent(event);
    } catch (error) {
      if (!(error instanceof InvalidEventError)) throw error;
      throw new InvalidPayloadError(`Recipient ${index} cannot be recorded: ${error.message}.`);
    }
    events.push(event);
  }
  return { events, ignored: mapped.ignored, unusable };
}

export function createFeedReceiver(options: FeedReceiverOptions): FeedReceiver {
  const text = (request: FeedRequest): string => request.body.toString('utf8');

  async function receiveSes(feed: Feed & { provider: 'ses' }, request: FeedRequest, context: MappingContext) {
    const envelope = parseSnsEnvelope(request.body, headerValue(request.headers, 'x-amz-sns-rawdelivery'));
    await verifySns(feed.verification, envelope, options.sns);
    if (envelope.Type === 'SubscriptionConfirmation') {
      await options.sns.confirmSubscription(envelope.SubscribeURL);
      options.logger.info({ feed_id: feed.id, topic_arn: envelope.TopicArn }, 'SNS subscription confirmed');
      return { events: [], ignored: [] };
    }
    if (envelope.Type === 'UnsubscribeConfirmation') {
      options.logger.warn({ feed_id: feed.id, topic_arn: envelope.TopicArn }, 'SNS subscription ended');
      return { events: [], ignored: [] };
    }
    return mapSes(envelope.Message, { id: envelope.MessageId }, context);
  }

  return {
    async receive(feed, request) {
      const context: MappingContext = { accountId: feed.accountId, emailIdTag: options.emailIdTag };
      switch (feed.provider) {
        case 'ses':
          return { ...queueable(await receiveSes(feed, request, context)), afterQueued: nothingToDo };
        case 'sendgrid':
          verifySendGrid(feed.verification, request);
          return { ...queueable(mapSendGrid(text(request), {}, context)), afterQueued: nothingToDo };
        case 'postmark':
          verifyPostmark(feed.verification, request);
          return { ...queueable(mapPostmark(text(request), {}, context)), afterQueued: nothingToDo };
        case 'resend': {
          const id = verifyResend(feed.verification, request);
          return { ...queueable(mapResend(text(request), { id }, context)), afterQueued: nothingToDo };
        }
        case 'mailgun': {
          const token = verifyMailgun(feed.verification, request);
          const { replays } = options;
          if (!replays) throw new FeedUnavailableError('Mailgun feeds need Redis to remember their tokens');
          if (await replays.seen(feed.id, token)) {
            throw new FeedVerificationError('replay', 'this signature token was already used');
          }
          const received = queueable(mapMailgun(text(request), {}, context));
          return { ...received, afterQueued: () => replays.remember(feed.id, token) };
        }
      }
    },
  };
}
