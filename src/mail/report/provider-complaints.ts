import type { Header } from 'postal-mime';
import { firstAddress } from './addresses.js';
import { emptyRecord, type MailRecord, type OriginalMessage } from './mail-record.js';

/**
 * Complaints that come without an ARF part: Microsoft's Junk Mail Reporting Program (the reported
 * message enclosed, stamped `X-HmXmrOriginalRecipient` with the complaining recipient), and the
 * unsubscribe message Apple Mail sends for a `List-Unsubscribe` mailto link (feedback type opt-out,
 * from the unsubscribing recipient). Null when the message is neither.
 */
export function providerComplaintRecords(
  headers: readonly Header[],
  text: string,
  original: OriginalMessage | null,
  from: string | null,
): MailRecord[] | null {
  const reported = original?.headers.find(([name]) => name.toLowerCase() === 'x-hmxmroriginalrecipient');
  if (reported) {
    const recipient = firstAddress(reported[1]) ?? original?.to[0] ?? null;
    return [{ ...emptyRecord('complaint', recipient), feedback_type: 'abuse' }];
  }
  const subject = headers
    .find((header) => header.key === 'subject')
    ?.value.trim()
    .toLowerCase();
  if (subject === 'unsubscribe' && /sent this email to unsubscribe from the message/i.test(text)) {
    return [{ ...emptyRecord('complaint', from), feedback_type: 'opt-out', user_agent: 'Apple Mail' }];
  }
  return null;
}
