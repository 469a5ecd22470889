import { queuedMailMessageSchema, type QueuedMailMessage } from '../../src/contract/mail.js';
import { AppError } from '../../src/errors.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import type { MessagesDeps } from './deps.js';
import { MESSAGE_BODY } from './example-message.js';
import { messageBytes } from './message-bytes.js';

export const queueMessageEndpoint: Endpoint<MessagesDeps> = {
  method: 'post',
  path: '/',
  access: 'full',
  body: 'message',
  doc: {
    operationId: 'queueMessage',
    tags: ['Messages'],
    summary: 'Hand in a bounce, complaint or automatic reply',
    description:
      'Queues one raw mail message for the mail worker, which reads it as `POST /messages/parse` shows and queues the events of its records for this account. Answered 202 once the message is queued. The same bytes are one message: sent again, it is applied once. A record acts only when the message came to a return path of this account.',
    request: { body: MESSAGE_BODY },
    responses: {
      202: jsonAnswer('Queued.', queuedMailMessageSchema, {
        object: 'mail_message',
        id: '3f2a9c0d4b8e7f6a5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2a',
        status: 'queued',
      }),
      ...authenticatedErrors(...BODY_ERRORS),
    },
  },
  handler:
    ({ mail, maxBytes }) =>
    async (req, res) => {
      const raw = messageBytes(req.body, maxBytes);
      if (!mail) throw new AppError('service_unavailable', 'The mail queue is not available. Try again shortly.');
      let digest: string;
      try {
        ({ digest } = await mail.queue(raw, { source: 'upload', accountId: accountOf(res) }));
      } catch (error) {
        throw new AppError(
          'service_unavailable',
          'The mail queue is unavailable: the message was not queued. Try again shortly.',
          {
            cause: error,
          },
        );
      }
      res.status(202).json({ object: 'mail_message', id: digest, status: 'queued' } satisfies QueuedMailMessage);
    },
};
