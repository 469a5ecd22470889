import { webhookSecretSchema, type WebhookSecret } from '../../src/contract/webhook.js';
import { rotateSigningSecret } from '../../src/webhooks/webhook-repository.js';
import { accountOf } from '../http/authenticate.js';
import type { Endpoint } from '../http/endpoints.js';
import { exampleWebhookIds } from '../openapi/examples.js';
import { idempotencyHeaders } from '../openapi/headers.js';
import { authenticatedErrors, BODY_ERRORS, jsonAnswer } from '../openapi/responses.js';
import type { WebhooksDeps } from './deps.js';
import { webhookIdOf, webhookNotFound } from './lookups.js';
import { webhookParamsSchema } from './schemas.js';

export const rotateSigningSecretEndpoint: Endpoint<WebhooksDeps> = {
  method: 'post',
  path: '/:webhook_id/signing-secret/rotate',
  access: 'full',
  doc: {
    operationId: 'rotateWebhookSigningSecret',
    tags: ['Webhooks'],
    summary: 'Issue a new signing secret',
    description:
      'Deliveries are signed with the new secret from now on, and for a day with the old one as well, so a receiver can switch over without dropping any.',
    request: { params: webhookParamsSchema, headers: idempotencyHeaders },
    responses: {
      200: jsonAnswer('The new secret.', webhookSecretSchema, {
        object: 'webhook',
        id: exampleWebhookIds[0],
        signing_secret: 'whsec_q3Vx0nB5Yp1kR8tW2zC6mF9hJ4sL7dA0eG3iK5oN8uQ=',
      }),
      ...authenticatedErrors('not_found', ...BODY_ERRORS),
    },
  },
  handler:
    ({ db }) =>
    async (req, res) => {
      const rotated = await rotateSigningSecret(db, accountOf(res), webhookIdOf(req));
      if (!rotated) throw webhookNotFound();
      res.json({ object: 'webhook', id: rotated.id, signing_secret: rotated.signingSecret } satisfies WebhookSecret);
    },
};
