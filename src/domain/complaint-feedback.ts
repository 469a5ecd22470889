/**
 * ARF feedback types that are no complaint: `not-spam` says the recipient wants the mail, and
 * `auth-failure` is a report of a failed DMARC check, about the sender's setup.
 */
const NON_COMPLAINT_FEEDBACK_TYPES: ReadonlySet<string> = new Set(['not-spam', 'auth-failure']);

/** Whether a complaint of this ARF feedback type (or none) is one, and so suppresses. */
export function isComplaint(feedbackType: string | null | undefined): boolean {
  return !NON_COMPLAINT_FEEDBACK_TYPES.has(feedbackType?.trim().toLowerCase() ?? '');
}
