import { findAddresses } from './addresses.js';
import { fieldValue, fieldValues, readFieldGroups, untyped } from './header-fields.js';
import {
  emptyRecord,
  MAX_RECORDS,
  MAX_REPORT_PART_CHARS,
  type MailRecord,
  type OriginalMessage,
} from './mail-record.js';
import { isoDate } from './report-headers.js';

/**
 * The complaint records of an ARF report (RFC 5965): one per Original-Rcpt-To, else per
 * Removal-Recipient, else per recipient of the enclosed original.
 */
export function feedbackRecords(text: string, original: OriginalMessage | null, fallback: string[]): MailRecord[] {
  const fields = readFieldGroups(text.slice(0, MAX_REPORT_PART_CHARS)).flat();
  const named = [...fieldValues(fields, 'original-rcpt-to'), ...fieldValues(fields, 'removal-recipient')];
  let recipients = [...new Set(named.flatMap((value) => findAddresses(untyped(value)).map((found) => found.address)))];
  if (recipients.length === 0) recipients = original?.to.length ? original.to : fallback;
  if (recipients.length === 0) recipients = [''];
  const reportingMta = fieldValue(fields, 'reporting-mta');
  const common = {
    feedback_type: fieldValue(fields, 'feedback-type')?.toLowerCase() ?? 'abuse',
    user_agent: fieldValue(fields, 'user-agent'),
    reporting_mta: reportingMta === null ? null : untyped(reportingMta),
    arrival_date: isoDate(fieldValue(fields, 'arrival-date') ?? fieldValue(fields, 'received-date')),
  };
  return recipients
    .slice(0, MAX_RECORDS)
    .map((recipient) => ({ ...emptyRecord('complaint', recipient || null), ...common }));
}
