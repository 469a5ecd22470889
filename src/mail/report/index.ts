export { parseMailMessage, DEFAULT_MAX_MESSAGE_BYTES, type ParseMailOptions } from './parse-mail-message.js';
export { MailMessageTooLargeError, UnreadableMailMessageError } from './mail-errors.js';
export * from './mail-record.js';
