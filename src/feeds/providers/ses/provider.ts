import { FeedSettingsError, headerValue } from '../../feed-errors.js';
import type { FeedProvider } from '../../feed-provider.js';
import { mapSes, SES_SOURCE_IDS } from './mapping.js';
import { parseSnsEnvelope } from '../../sns/envelope.js';
import { verifySns } from '../../sns/signature.js';

/** What an SES feed's requests are verified with: the SNS topics whose notifications it takes. */
export interface SesVerification {
  topic_arns: string[];
}

const TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;

/** Amazon SES, whose events come through an SNS topic: the request is an SNS message carrying one. */
export const ses: FeedProvider<'ses', SesVerification> = {
  name: 'ses',
  title: 'Amazon SES',
  sourceIdNamespace: SES_SOURCE_IDS,
  settings: {
    options: [
      {
        key: 'topicArns',
        flags: '--topic-arn <arn>',
        description: 'an SNS topic whose notifications the feed takes (repeatable)',
        repeatable: true,
      },
    ],
    create(input) {
      const given = input.topicArns ?? [];
      const topicArns = [...new Set((typeof given === 'string' ? [given] : given).map((arn) => arn.trim()))];
      if (topicArns.length === 0) throw new FeedSettingsError('An ses feed needs --topic-arn <arn> (one or more).');
      const wrong = topicArns.find((arn) => !TOPIC_ARN.test(arn));
      if (wrong !== undefined) {
        throw new FeedSettingsError(`"${wrong}" is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).`);
      }
      return { verification: { topic_arns: topicArns }, shown: { topic_arns: topicArns } };
    },
    hints: [
      'Subscribe this URL (HTTPS) to the topic, with raw message delivery off; the subscription is confirmed on its first message.',
    ],
  },
  scopeSources: ['configuration-set', 'tag:<name>'],
  async verify(verification, request, context) {
    const envelope = parseSnsEnvelope(request.body, headerValue(request.headers, 'x-amz-sns-rawdelivery'));
    await verifySns(verification.topic_arns, envelope, context.sns);
    const topic = { feed_id: context.feedId, topic_arn: envelope.TopicArn };
    if (envelope.Type === 'SubscriptionConfirmation') {
      await context.sns.confirmSubscription(envelope.SubscribeURL);
      context.logger.info(topic, 'SNS subscription confirmed');
      return { text: null, delivery: {} };
    }
    if (envelope.Type === 'UnsubscribeConfirmation') {
      context.logger.warn(topic, 'SNS subscription ended');
      return { text: null, delivery: {} };
    }
    // The SNS MessageId is what makes SNS's redeliveries of one notification the same events.
    return { text: envelope.Message, delivery: { id: envelope.MessageId } };
  },
  map: mapSes,
};
