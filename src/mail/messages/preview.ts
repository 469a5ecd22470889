import { classifyBounce } from '../../bounces/bounce-classifier.js';
import type { Queryable } from '../../db/database.js';
import type { BounceCategory, BounceReason } from '../../domain/bounce-categories.js';
import type { MailRecordKind } from '../report/mail-record.js';
import type { UnverifiedReason } from '../../domain/mail-records.js';
import { attributeMessage, type AttributionSettings } from './attribution.js';
import { NO_ENVELOPE } from './mail-job.js';
import { bounceOf } from './message-evidence.js';
import { parsedOrWhyNot } from './read-mail-message.js';

/** One record of a message as `POST /messages/parse` shows it. */
export interface MailRecordPreview {
  kind: MailRecordKind;
  /** Whom it would act on: the return path's recipient when one verified, else the one it names. */
  recipient: string | null;
  status: string | null;
  reply_code: string | null;
  diagnostic: string | null;
  feedback_type: string | null;
  /** The classifier's decision on a bounce or an automatic reply; null for the other kinds. */
  category: BounceCategory | null;
  reason: BounceReason | null;
  /** Whether a return path of the service makes it act. */
  verified: boolean;
  /** Why it would act for nobody, when it would not. */
  unverified_reason: UnverifiedReason | null;
}

export type MailPreview =
  { readable: true; format: string; records: MailRecordPreview[] } | { readable: false; reason: string };

/**
 * What a message would give, read and decided as the mail worker would, and nothing written: the
 * records, whom each acts on, and the classifier's decision on each bounce.
 */
export async function previewMailMessage(
  db: Queryable,
  raw: Buffer,
  settings: AttributionSettings,
  { now, uploadedBy, maxBytes }: { now: Date; uploadedBy: string; maxBytes: number },
): Promise<MailPreview> {
  const parsed = await parsedOrWhyNot(raw, maxBytes);
  if (typeof parsed === 'string') return { readable: false, reason: parsed };
  const attribution = await attributeMessage(db, parsed, NO_ENVELOPE, settings, {
    now,
    uploadedBy,
  });
  const records = parsed.records.map((record): MailRecordPreview => {
    const decided =
      record.kind === 'bounce' || record.kind === 'auto_reply' ? classifyBounce(bounceOf(record, parsed.format)) : null;
    return {
      kind: record.kind,
      recipient: attribution.verified ? (attribution.recipient ?? record.recipient) : record.recipient,
      status: record.status,
      reply_code: record.reply_code,
      diagnostic: record.diagnostic,
      feedback_type: record.feedback_type,
      category: decided?.category ?? null,
      reason: decided?.reason ?? null,
      verified: attribution.verified,
      unverified_reason: attribution.verified ? null : attribution.reason,
    };
  });
  return { readable: true, format: parsed.format, records };
}
