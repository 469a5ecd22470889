import { z } from 'zod';
import type { BounceType, SuppressionEventInput } from '../../../events/event-schema.js';
import { feedEventId, feedSourceId } from '../../event-ids.js';
import { InvalidPayloadError } from '../../feed-errors.js';
import type { FeedMapper, MappedPayload, MappingContext } from '../../feed-mapping.js';
import { messageScope } from '../../message-scope.js';
import {
  isoTimestamp,
  isRecord,
  parsePayload,
  recipientAddress,
  requiredOr,
  timestampField,
} from '../../payload-parsing.js';

/**
 * The UUIDv5 namespace of the source ids made from KumoMTA spool ids: one per provider, so equal message
 * ids of two providers never map to the same source id.
 */
export const KUMOMTA_SOURCE_IDS = '7c41e2b8-0d95-4f6a-b3e7-19a5c8d2f406';

const WHAT = 'a KumoMTA log record';

const text = z.string().min(1, { error: 'must not be empty' });

const kindSchema = z.object({ type: text }, { error: 'must be a JSON object' });

// Since 2025.12.02 a record of an SMTP transaction with several recipients names them all in a list.
const recipientsSchema = z.union(
  [text.transform((address) => [address]), z.array(text).min(1, { error: 'must name at least one recipient' })],
  { error: requiredOr('must be an address or a list of addresses') },
);

const labelsSchema = z.record(z.string(), z.unknown()).nullish();

// What every record has that the mapping reads: the spool id, when it was logged, and the meta data
// and headers the hook was configured to log.
const recordSchema = z.object({
  id: text,
  timestamp: timestampField('must be Unix seconds'),
  // The same instant to the nanosecond, in records of 2025.10.06 and later.
  event_time: z.string().nullish(),
  meta: labelsSchema,
  headers: labelsSchema,
});

const deliverySchema = recordSchema.extend({
  recipient: recipientsSchema,
  response: z.object({
    code: z.number().int().nullish(),
    enhanced_code: z.object({ class: z.number().int(), subject: z.number().int(), detail: z.number().int() }).nullish(),
    content: z.string().nullish(),
  }),
  // The receiving server, present when one answered; absent when KumoMTA decided itself.
  peer_address: z.object({ name: z.string().nullish() }).nullish(),
  bounce_classification: z.string().nullish(),
});

const feedbackSchema = recordSchema.extend({
  feedback_report: z.object(
    {
      feedback_type: text,
      // KumoMTA's spelling of RFC 5965's Original-Rcpt-To.
      original_rcpto_to: z.array(z.string()).nullish(),
      // The payload of KumoMTA's own trace header, found in the reported message: its original recipient.
      supplemental_trace: labelsSchema,
      extensions: z.record(z.string(), z.unknown()).nullish(),
    },
    { error: requiredOr('must be the parsed feedback report') },
  ),
});

type Labelled = z.output<typeof recordSchema>;
type DeliveryRecord = z.output<typeof deliverySchema>;
type FeedbackRecord = z.output<typeof feedbackSchema>;

/**
 * Each record's name when it is a bounce: a `Bounce` is the end of delivery on a permanent failure, an
 * `OOB` the failed recipient of a delivery status report received later, a `TransientFailure` one
 * attempt that will be retried.
 */
const BOUNCES = new Set(['Bounce', 'OOB', 'TransientFailure']);

/**
 * The records of one request: the log hook posts one record per request, or a batch as a JSON array
 * or as one record per line.
 */
function parseRecords(body: string): unknown[] {
  const whole = body.trim();
  if (whole === '') throw new InvalidPayloadError(`Not ${WHAT}: the body is empty.`);
  try {
    const data: unknown = JSON.parse(whole);
    return Array.isArray(data) ? data : [data];
  } catch {
    // One record per line, then.
  }
  const records: unknown[] = [];
  for (const [index, line] of body.split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      throw new InvalidPayloadError(
        `Not ${WHAT}: the body is neither JSON nor one JSON record per line (line ${index + 1} is not JSON).`,
      );
    }
  }
  return records;
}

/** A label the hook logged: a meta field, a trace field, else a header of that name in any case. */
function labelReader(record: Labelled, trace?: Record<string, unknown> | null): (name: string) => unknown {
  return (name) => {
    if (record.meta && Object.hasOwn(record.meta, name)) return record.meta[name];
    if (trace && Object.hasOwn(trace, name)) return trace[name];
    const headers = record.headers ?? {};
    const header = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
    return header === undefined ? undefined : headers[header];
  };
}

function eventBase(
  kind: string,
  record: Labelled,
  email: string,
  label: (name: string) => unknown,
  context: MappingContext,
): Omit<SuppressionEventInput, 'type'> {
  return {
    account_id: context.accountId,
    // The record type is part of the id: one spool id has a TransientFailure and then a Bounce.
    event_id: feedEventId('kumomta', `${kind}:${record.id}`, email),
    email,
    source_id: feedSourceId(KUMOMTA_SOURCE_IDS, label(context.emailIdTag), record.id),
    occurred_at: isoTimestamp(record.event_time ?? '') ?? record.timestamp,
    provider_message_id: record.id,
    scope: messageScope(context.scopeFrom, { named: label }),
  };
}

/**
 * The classes KumoMTA's bounce classifier gives an automatic reply (`AutoReply`, an out-of-office or
 * vacation mail; `ChallengeResponse`, a challenge-response probe), as the sub-types this service's
 * classifier reads as `auto_reply`: the mail parser's word for an automatic reply, and Postmark's for
 * a challenge. An automatic reply says the mailbox is read, never that it is gone.
 */
const AUTO_REPLIES = new Map([
  ['AutoReply', 'autoresponder'],
  ['ChallengeResponse', 'challengeverification'],
]);

/**
 * A bounce's label by who answered. A `Bounce` with a receiving server is its permanent refusal; one
 * without is KumoMTA's own decision (its policy, its DNS lookups, its queues), which says nothing by
 * its label and is left to its text and codes. An `OOB` is a report's failed recipient. An automatic
 * reply claims no failure, as the mail parser records one.
 */
function bounceType(kind: string, record: DeliveryRecord): BounceType {
  if (AUTO_REPLIES.has(record.bounce_classification ?? '')) return 'undetermined';
  if (kind === 'TransientFailure') return 'transient';
  if (kind === 'Bounce' && !record.peer_address) return 'undetermined';
  return 'permanent';
}

function bounceEvents(kind: string, record: DeliveryRecord, context: MappingContext): SuppressionEventInput[] {
  const { code, enhanced_code: enhanced, content } = record.response;
  const label = labelReader(record);
  const bounce = {
    type: bounceType(kind, record),
    // KumoMTA's own classifier, kept as the provider's finer word beside this service's classification.
    sub_type: AUTO_REPLIES.get(record.bounce_classification ?? '') ?? (record.bounce_classification || undefined),
    status: enhanced ? `${enhanced.class}.${enhanced.subject}.${enhanced.detail}` : undefined,
    reply_code: code ?? undefined,
    diagnostic: content?.trim() || undefined,
    provider: 'kumomta',
    remote_mta: record.peer_address?.name?.replace(/\.$/, '') || undefined,
  };
  const addresses = new Set(record.recipient.map(recipientAddress));
  return [...addresses].map((email) => ({
    ...eventBase(kind, record, email, label, context),
    type: 'bounce',
    bounce,
  }));
}

function listed(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
}

/**
 * Who complained. The record's own recipient is the feedback mailbox the report was sent to, so the
 * complainant is read from the report: KumoMTA's trace header of the reported message (its original
 * recipient, the surest), else the report's Original-Rcpt-To, else the `Removal-Recipient` some
 * mailbox providers add.
 */
function complainants(report: FeedbackRecord['feedback_report']): string[] {
  const trace = listed(report.supplemental_trace?.['recipient']);
  const named = trace.length > 0 ? trace : listed(report.original_rcpto_to);
  const extensions = isRecord(report.extensions) ? report.extensions : {};
  const removal = Object.keys(extensions).find((key) => key.toLowerCase() === 'removal-recipient');
  const addresses = named.length > 0 ? named : listed(removal === undefined ? undefined : extensions[removal]);
  return [...new Set(addresses.map(recipientAddress))];
}

function feedbackEvents(record: FeedbackRecord, context: MappingContext): SuppressionEventInput[] {
  const report = record.feedback_report;
  const label = labelReader(record, report.supplemental_trace);
  return complainants(report).map((email) => ({
    ...eventBase('Feedback', record, email, label, context),
    type: 'complaint',
    complaint: { feedback_type: report.feedback_type },
  }));
}

/**
 * KumoMTA log records, one or a batch: every recipient of a `Bounce`, `OOB` or `TransientFailure`
 * record is a bounce, and every complainant of a `Feedback` record a complaint. A transient failure
 * KumoMTA logged without a receiving server (its own throttles, suspended queues, connections it
 * could not make) says nothing of the address and is ignored as `TransientFailure:internal`; every
 * other record type (`Reception`, `Delivery`, `Expiration`, `AdminBounce`, `Rejection`, `Delayed`,
 * types added later) is ignored under its name.
 */
export const mapKumoMta: FeedMapper = (body, _delivery, context) => {
  const records = parseRecords(body);
  const mapped: MappedPayload = { events: [], ignored: [] };
  records.forEach((data, index) => {
    const at = records.length > 1 ? [index] : [];
    const { type } = parsePayload(kindSchema, data, WHAT, at);
    if (type === 'Feedback') {
      const events = feedbackEvents(parsePayload(feedbackSchema, data, WHAT, at), context);
      if (events.length === 0) mapped.ignored.push('Feedback:unattributed');
      mapped.events.push(...events);
    } else if (BOUNCES.has(type)) {
      const record = parsePayload(deliverySchema, data, WHAT, at);
      if (type === 'TransientFailure' && !record.peer_address) mapped.ignored.push('TransientFailure:internal');
      else mapped.events.push(...bounceEvents(type, record, context));
    } else {
      mapped.ignored.push(type);
    }
  });
  return mapped;
};
