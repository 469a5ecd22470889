import { webhookEventRefSchema, type WebhookEventRef } from '../../src/contract/webhook-event.js';
import type { Logger } from '../../src/logger.js';
import type { DueDelivery } from '../../src/webhooks/delivery.js';
import { replayDelivery } from '../../src/webhooks/event-log.js';
import type { Endpoint } from '../http/endpoints.js';
import { exampleEventIds } from '../openapi/examples.js';
import { idempotencyHeaders } from '../openapi/headers.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import type { WebhooksDeps } from './deps.js';
import { eventIdOf, eventNotFound, requireWebhook } from './lookups.js';
import { eventParamsSchema } from './schemas.js';

/** The database already holds the replay as due: a failure here only delays it until the sweeper's next pass. */
async function queueReplay(queue: WebhooksDeps['queue'], logger: Logger, due: DueDelivery): Promise<void> {
  if (!queue) return;
  try {
    await queue([due]);
  } catch (error) {
    logger.warn(
      { err: error, deliveryId: due.deliveryId },
      'could not queue a replayed delivery; the sweeper will queue it',
    );
  }
}

export const replayEventEndpoint: Endpoint<WebhooksDeps> = {
  method: 'post',
  path: '/:webhook_id/events/:event_id/replay',
  access: 'full',
  doc: {
    operationId: 'replayWebhookEvent',
    tags: ['Webhooks'],
    summary: 'Deliver an event again',
    description:
      'Whatever its status, the event becomes `pending` with a new round of retries, and is attempted at once (or, when the delivery queue cannot take it, within a minute and a half). The payload, id and signature scheme are the same as before.',
    request: { params: eventParamsSchema, headers: idempotencyHeaders },
    responses: {
      200: jsonAnswer('The event is due again.', webhookEventRefSchema, {
        object: 'webhook_event',
        id: exampleEventIds[0],
      }),
      ...authenticatedErrors('not_found', ...BODY_ERRORS),
    },
  },
  handler:
    ({ db, logger, queue }) =>
    async (req, res) => {
      const webhook = await requireWebhook(db, req, res);
      const due = await replayDelivery(db, webhook.id, eventIdOf(req));
      if (!due) throw eventNotFound();
      await queueReplay(queue, logger, due);
      res.json({ object: 'webhook_event', id: due.deliveryId } satisfies WebhookEventRef);
    },
};
