import { firstAddress } from './addresses.js';
import { fieldValue, readFieldGroups, untyped, type Field } from './header-fields.js';
import { emptyRecord, MAX_RECORDS, MAX_REPORT_PART_CHARS, type MailRecord } from './mail-record.js';
import { isoDate } from './report-headers.js';
import { chooseStatus, cleanDiagnostic, hasCode, replyCodeInText, statusOfField } from './smtp-codes.js';

/** The per-message fields of a DSN and its per-recipient groups (RFC 3464 section 2). */
export interface DeliveryStatus {
  message: Field[];
  recipients: Field[][];
}

const RECIPIENT_FIELDS = new Set(['final-recipient', 'original-recipient', 'x-actual-recipient']);
/** Actions that report no failure: the message went on (RFC 3464 section 2.3.3), or would (`deliverable`, of an address check). */
const NOT_FAILED = new Set(['delivered', 'relayed', 'expanded', 'deliverable']);

/**
 * The DSN's fields. A recipient's group starts at its recipient field; a blank line ends it, and a
 * second recipient field of the same name starts the next one, for the MTAs that leave the blank
 * line out.
 */
export function readDeliveryStatus(text: string): DeliveryStatus {
  const message: Field[] = [];
  const recipients: Field[][] = [];
  for (const group of readFieldGroups(text.slice(0, MAX_REPORT_PART_CHARS))) {
    let current: Field[] | null = null;
    for (const field of group) {
      if (RECIPIENT_FIELDS.has(field.name)) {
        if (current === null || current.some((held) => held.name === field.name)) {
          if (recipients.length >= MAX_RECORDS) return finish(message, recipients);
          current = [];
          recipients.push(current);
        }
      }
      if (current === null) message.push(field);
      else current.push(field);
    }
  }
  return finish(message, recipients);
}

function finish(message: Field[], recipients: Field[][]): DeliveryStatus {
  return { message, recipients: recipients.filter((group) => recipientOf(group) !== null) };
}

function recipientOf(group: readonly Field[]): string | null {
  const final = fieldValue(group, 'final-recipient');
  const original = fieldValue(group, 'original-recipient');
  return firstAddress(final ? untyped(final) : null) ?? firstAddress(original ? untyped(original) : null);
}

function typedValue(fields: readonly Field[], name: string): string | null {
  const value = fieldValue(fields, name);
  return value === null ? null : untyped(value) || null;
}

/** The server's text of a Diagnostic-Code, without its type (`smtp;`). */
function diagnosticOf(group: readonly Field[]): string | null {
  const value = fieldValue(group, 'diagnostic-code');
  return value === null ? null : cleanDiagnostic(untyped(value));
}

/**
 * One record per failed or delayed recipient. `textFor` gives the notice's own sentence for a
 * recipient whose group has no Diagnostic-Code.
 */
export function deliveryStatusRecords(
  status: DeliveryStatus,
  textFor: (recipient: string) => string | null,
): MailRecord[] {
  const reportingMta = typedValue(status.message, 'reporting-mta');
  const arrival = isoDate(fieldValue(status.message, 'arrival-date'));
  const records: MailRecord[] = [];
  for (const group of status.recipients) {
    const action = fieldValue(group, 'action')?.toLowerCase().split(/[\s(]/)[0] ?? null;
    if (action !== null && NOT_FAILED.has(action)) continue;
    const recipient = recipientOf(group) as string;
    // A Diagnostic-Code without an SMTP code (`X-Unix; 255`, a local delivery's) says less than the
    // notice's own sentence for the recipient when that one carries the code.
    const field = diagnosticOf(group);
    const sentence = field === null || !hasCode(field) ? cleanDiagnostic(textFor(recipient)) : null;
    const diagnostic = sentence !== null && (field === null || hasCode(sentence)) ? sentence : field;
    const statusField = statusOfField(fieldValue(group, 'status'));
    const status = chooseStatus(statusField, diagnostic);
    // A reply code of the other class than the status is not the answer that decided the status
    // (a 5xx quoted in a notice of a temporary 4.x.x failure, or the reverse).
    const reply = replyCodeInText(diagnostic);
    const delayed = action === 'delayed';
    records.push({
      ...emptyRecord(delayed ? 'delay' : 'bounce', recipient),
      status,
      reply_code: reply !== null && status !== null && reply[0] !== status[0] ? null : reply,
      diagnostic,
      action,
      remote_mta: typedValue(group, 'remote-mta'),
      reporting_mta: typedValue(group, 'reporting-mta') ?? reportingMta,
      arrival_date: isoDate(fieldValue(group, 'arrival-date')) ?? arrival,
    });
  }
  return records;
}

/** Whether the DSN reports only deliveries: a report, but of no failure. */
export function onlyDeliveries(status: DeliveryStatus): boolean {
  return (
    status.recipients.length > 0 &&
    status.recipients.every((group) =>
      NOT_FAILED.has(fieldValue(group, 'action')?.toLowerCase().split(/[\s(]/)[0] ?? ''),
    )
  );
}
