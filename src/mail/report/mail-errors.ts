/** The message is larger than the parser accepts; nothing of it was read. */
export class MailMessageTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(`The mail message is ${size} bytes, more than the ${limit} bytes accepted.`);
    this.name = 'MailMessageTooLargeError';
  }
}

/** The message cannot be read as MIME within the parser's limits (nesting, header size, structure). */
export class UnreadableMailMessageError extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(`The mail message cannot be read: ${reason}`, options);
    this.name = 'UnreadableMailMessageError';
  }
}
