import { AppError } from '../../src/errors.js';
import { errorMessage } from '../../src/error-codes.js';

/** The message a request carries: its bytes, none empty, none over `MAIL_MAX_MESSAGE_BYTES`. */
export function messageBytes(body: unknown, maxBytes: number): Buffer {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new AppError(
      'validation_error',
      'The request body must be one mail message (`Content-Type: message/rfc822`).',
    );
  }
  if (body.length > maxBytes) {
    throw new AppError('payload_too_large', errorMessage('payload_too_large', { limit: `${maxBytes} bytes` }));
  }
  return body;
}
