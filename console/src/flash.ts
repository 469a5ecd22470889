/** A message for the next page to announce (after a removal that leaves the entry's page, say). */
let pending: string | null = null;

export function setFlash(message: string): void {
  pending = message;
}

/** The message left for this page, once: it is forgotten as it is read. */
export function takeFlash(): string | null {
  const message = pending;
  pending = null;
  return message;
}
