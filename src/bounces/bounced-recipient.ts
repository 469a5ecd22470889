/**
 * Which of a message's recipients a bounce is about, when a provider reports one bounce for a
 * message of several recipients (Resend lists every address of the email in `to`): the only
 * recipient, or the one address among them the diagnostic names. Null when the diagnostic names
 * none of them, or more than one: the bounce cannot be pinned on any single recipient.
 */
export function bouncedRecipient(recipients: readonly string[], diagnostic: string | null | undefined): string | null {
  const distinct = [...new Set(recipients.map((recipient) => recipient.trim().toLowerCase()))];
  if (distinct.length === 1) return distinct[0] as string;
  const text = (diagnostic ?? '').toLowerCase();
  const named = distinct.filter((recipient) => recipient !== '' && text.includes(recipient));
  return named.length === 1 ? (named[0] as string) : null;
}
