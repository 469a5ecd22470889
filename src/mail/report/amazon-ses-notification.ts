import { normalizeAddress } from './addresses.js';
import { untyped } from './header-fields.js';
import { emptyRecord, type MailRecord } from './mail-record.js';
import { isoDate } from './report-headers.js';
import { chooseStatus, cleanDiagnostic, replyCodeInText, statusOfField } from './smtp-codes.js';

/** The body of Amazon SES's notification as SNS mails it: its JSON (`notificationType`, `bounce`, `complaint`). */
interface SesNotification {
  notificationType?: unknown;
  bounce?: {
    bouncedRecipients?: { emailAddress?: unknown; action?: unknown; status?: unknown; diagnosticCode?: unknown }[];
    reportingMTA?: unknown;
    remoteMtaIp?: unknown;
    timestamp?: unknown;
  };
  complaint?: {
    complainedRecipients?: { emailAddress?: unknown }[];
    complaintFeedbackType?: unknown;
    userAgent?: unknown;
    arrivalDate?: unknown;
    timestamp?: unknown;
  };
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The notification's JSON in a mail body, bare or inside the SNS envelope (its `Message` string);
 * null when the body holds none. Mail wraps long lines with a line end and a space, and JSON holds
 * no raw line end, so every one is the wrapping's.
 */
function notificationOf(body: string): SesNotification | null {
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end < start || !body.includes('notificationType')) return null;
  const value = parseObject(
    body
      .slice(start, end + 1)
      .replace(/\r?\n /g, '')
      .replace(/\r?\n/g, ''),
  );
  if (value === null) return null;
  if (typeof value.Message === 'string') return parseObject(value.Message);
  return value;
}

/**
 * The records of an Amazon SES bounce or complaint notification delivered by email (SNS): one per
 * bounced or complained recipient; `[]` for a delivery notification; null when the body is not one.
 */
export function sesNotificationRecords(body: string): MailRecord[] | null {
  const notification = notificationOf(body);
  if (notification === null) return null;
  const type = text(notification.notificationType)?.toLowerCase();
  if (type === 'bounce' && Array.isArray(notification.bounce?.bouncedRecipients)) {
    const bounce = notification.bounce;
    return (bounce.bouncedRecipients ?? []).flatMap((entry) => {
      const recipient = normalizeAddress(text(entry.emailAddress) ?? '');
      if (recipient === null) return [];
      const diagnostic = cleanDiagnostic(untyped(text(entry.diagnosticCode) ?? ''));
      const action = text(entry.action)?.toLowerCase() ?? null;
      return [
        {
          ...emptyRecord(action === 'delayed' ? 'delay' : 'bounce', recipient),
          status: chooseStatus(statusOfField(text(entry.status)), diagnostic),
          reply_code: replyCodeInText(diagnostic),
          diagnostic,
          action,
          remote_mta: text(bounce.remoteMtaIp),
          reporting_mta: text(bounce.reportingMTA) === null ? null : untyped(text(bounce.reportingMTA) as string),
          arrival_date: isoDate(text(bounce.timestamp)),
        },
      ];
    });
  }
  if (type === 'complaint' && Array.isArray(notification.complaint?.complainedRecipients)) {
    const complaint = notification.complaint;
    return (complaint.complainedRecipients ?? []).flatMap((entry) => {
      const recipient = normalizeAddress(text(entry.emailAddress) ?? '');
      if (recipient === null) return [];
      return [
        {
          ...emptyRecord('complaint', recipient),
          feedback_type: text(complaint.complaintFeedbackType)?.toLowerCase() ?? 'abuse',
          user_agent: text(complaint.userAgent),
          arrival_date: isoDate(text(complaint.arrivalDate) ?? text(complaint.timestamp)),
        },
      ];
    });
  }
  return type === 'delivery' ? [] : null;
}
