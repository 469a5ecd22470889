import type { MailRecordList } from '../../src/contract/mail.js';
import { mailRecordListSchema } from '../../src/contract/mail.js';
import { AppError } from '../../src/errors.js';
import { previewMailMessage } from '../../src/mail/messages/preview.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import type { MessagesDeps } from './deps.js';
import { MESSAGE_BODY } from './example-message.js';
import { messageBytes } from './message-bytes.js';

export const parseMessageEndpoint: Endpoint<MessagesDeps> = {
  method: 'post',
  path: '/parse',
  access: 'full',
  body: 'message',
  doc: {
    operationId: 'parseMessage',
    tags: ['Messages'],
    summary: 'Read a bounce, complaint or automatic reply, and record nothing',
    description:
      'Reads one raw mail message as the mail worker would: its records (one per recipient of a delivery status notification), whom each acts on, and the classifier’s decision on each bounce. Writes nothing, as `POST /bounces/classify` does for single bounces. A record acts only when the message came to a return path of this account (`POST /return-paths`).',
    request: { body: MESSAGE_BODY },
    responses: {
      200: jsonAnswer('The records the message gives, in order.', mailRecordListSchema, {
        object: 'list',
        format: 'rfc3464',
        data: [
          {
            object: 'mail_record',
            kind: 'bounce',
            recipient: 'gone@example.org',
            status: '5.1.1',
            reply_code: '550',
            diagnostic: '550 5.1.1 <gone@example.org>: Recipient address rejected: User unknown',
            feedback_type: null,
            category: 'invalid_address',
            reason: 'user_unknown',
            verified: true,
            unverified_reason: null,
          },
        ],
      }),
      ...authenticatedErrors(...BODY_ERRORS),
    },
  },
  handler:
    ({ db, settings, maxBytes }) =>
    async (req, res) => {
      const raw = messageBytes(req.body, maxBytes);
      const preview = await previewMailMessage(db, raw, settings, {
        now: new Date(),
        uploadedBy: accountOf(res),
        maxBytes,
      });
      if (!preview.readable) throw new AppError('validation_error', `${preview.reason}`);
      res.json({
        object: 'list',
        format: preview.format,
        data: preview.records.map((record) => ({ object: 'mail_record', ...record })),
      } satisfies MailRecordList);
    },
};
