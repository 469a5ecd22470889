import { z } from 'zod';
import { InvalidPayloadError } from '../feed-errors.js';
import { parsePayload } from '../payload-parsing.js';

const text = z.string().min(1);

const common = {
  MessageId: text,
  TopicArn: text,
  Message: z.string(),
  Timestamp: text,
  SignatureVersion: z.string().optional(),
  Signature: z.string().optional(),
  SigningCertURL: z.string().optional(),
};

/** The SNS message an HTTP(S) subscription receives, with the fields its signature covers. */
const envelopeSchema = z.discriminatedUnion(
  'Type',
  [
    // A notification without a subject has no `Subject`, or one that is null; either way it is not signed.
    z.object({ Type: z.literal('Notification'), Subject: z.string().nullish(), ...common }),
    z.object({ Type: z.literal('SubscriptionConfirmation'), SubscribeURL: text, Token: text, ...common }),
    z.object({ Type: z.literal('UnsubscribeConfirmation'), SubscribeURL: text, Token: text, ...common }),
  ],
  { error: 'must be Notification, SubscriptionConfirmation or UnsubscribeConfirmation' },
);

export type SnsEnvelope = z.output<typeof envelopeSchema>;

/**
 * The SNS message of a request. A subscription with raw message delivery on sends the SES
 * notification bare, without the signed envelope, so it cannot be verified and is refused.
 */
export function parseSnsEnvelope(body: Buffer, rawDeliveryHeader: string | undefined): SnsEnvelope {
  const rawDelivery = new InvalidPayloadError(
    'Not an SNS message: raw message delivery is on for this subscription. Turn it off, so that SNS sends the signed envelope.',
  );
  if (rawDeliveryHeader?.toLowerCase() === 'true') throw rawDelivery;
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch {
    throw new InvalidPayloadError('Not an SNS message: the body is not JSON.');
  }
  if (
    typeof data === 'object' &&
    data !== null &&
    !('Type' in data) &&
    ('notificationType' in data || 'eventType' in data)
  ) {
    throw rawDelivery;
  }
  return parsePayload(envelopeSchema, data, 'an SNS message');
}

/** The text SNS signs: the message's fields, by name, in the order SNS documents for its type. */
export function snsStringToSign(envelope: SnsEnvelope): string {
  const fields: [string, string | null | undefined][] =
    envelope.Type === 'Notification'
      ? [
          ['Message', envelope.Message],
          ['MessageId', envelope.MessageId],
          ['Subject', envelope.Subject],
          ['Timestamp', envelope.Timestamp],
          ['TopicArn', envelope.TopicArn],
          ['Type', envelope.Type],
        ]
      : [
          ['Message', envelope.Message],
          ['MessageId', envelope.MessageId],
          ['SubscribeURL', envelope.SubscribeURL],
          ['Timestamp', envelope.Timestamp],
          ['Token', envelope.Token],
          ['TopicArn', envelope.TopicArn],
          ['Type', envelope.Type],
        ];
  return fields
    .filter((field): field is [string, string] => typeof field[1] === 'string')
    .map(([name, value]) => `${name}\n${value}\n`)
    .join('');
}
