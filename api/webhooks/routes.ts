import { Router, type Request, type RequestHandler, type Response } from 'express';
import type {
  WebhookPage,
  WebhookRef,
  WebhookRemoval,
  WebhookResource,
  WebhookSecret,
} from '../../src/contract/webhook.js';
import {
  EVENT_ID_PATTERN,
  type AttemptPage,
  type EventLogPage,
  type WebhookEventRef,
  type WebhookEventResource,
} from '../../src/contract/webhook-event.js';
import type { Database } from '../../src/db/database.js';
import { findDelivery, listAttempts, listDeliveries, replayDelivery } from '../../src/webhooks/event-log.js';
import { UnknownCursorError } from '../../src/db/keyset-page.js';
import {
  createWebhook,
  findWebhook,
  listWebhooks,
  removeWebhook,
  rotateSigningSecret,
  updateWebhook,
} from '../../src/webhooks/webhook-repository.js';
import { isUuid } from '../../src/domain/ids.js';
import { AppError, invalidField } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import type { DueDelivery } from '../../src/webhooks/delivery.js';
import { endpointProblem, resolvedEndpointProblem } from '../../src/webhooks/endpoint-safety.js';
import { toAttemptResource, toEventLogEntry, toWebhookEventResource } from '../../src/webhooks/event-log-resources.js';
import { toListedWebhook, toWebhookResource, type Webhook } from '../../src/webhooks/webhook.js';
import { accountOf } from '../http/authenticate.js';
import { methodNotAllowed } from '../http/errors.js';
import { namedRoute } from '../http/route-pattern.js';
import { parseInput } from '../http/validation.js';
import {
  attemptListQuerySchema,
  createWebhookBodySchema,
  eventListQuerySchema,
  updateWebhookBodySchema,
  webhookListQuerySchema,
} from './schemas.js';

/** Where `webhooksRouter` is mounted. */
export const WEBHOOKS_PATH = '/webhooks';

export interface WebhooksRouterOptions {
  db: Database;
  logger: Logger;
  allowPrivateEndpoints: boolean;
  queue?: ((due: readonly DueDelivery[]) => Promise<void>) | undefined;
}

const webhookNotFound = () => new AppError('not_found', 'Webhook not found.');
const eventNotFound = () => new AppError('not_found', 'Webhook event not found.');

/**
 * The webhook id of the path, lower-cased. One that is not a UUID names no webhook: 404, as an
 * unknown one, rather than a 422 that would tell ids and non-ids apart for nothing.
 */
function webhookIdOf(req: Request<{ webhook_id: string }>): string {
  const id = req.params.webhook_id;
  if (!isUuid(id)) throw webhookNotFound();
  return id.toLowerCase();
}

function eventIdOf(req: Request<{ event_id: string }>): string {
  const id = req.params.event_id;
  if (!EVENT_ID_PATTERN.test(id)) throw eventNotFound();
  return id;
}

/**
 * The account's webhooks, and each one's event log, at `/webhooks`, as Resend's API serves them.
 * `guards` (authentication, rate limiting, body parsing, idempotency keys) run first for every
 * request that reaches the router.
 */
export function webhooksRouter(options: WebhooksRouterOptions, guards: readonly RequestHandler[] = []): Router {
  const { db, logger, allowPrivateEndpoints, queue } = options;
  const router = Router();
  if (guards.length > 0) router.use(...guards);
  const route = <Path extends string>(path: Path) => namedRoute(router, WEBHOOKS_PATH, path);

  /** The endpoint as given, once it is one deliveries may go to; its host's addresses are looked up now too. */
  async function checkedEndpoint(endpoint: string): Promise<string> {
    const problem =
      endpointProblem(endpoint, allowPrivateEndpoints) ??
      (allowPrivateEndpoints ? null : await resolvedEndpointProblem(endpoint));
    if (problem !== null) throw invalidField('endpoint', problem);
    return endpoint;
  }

  async function requireWebhook(req: Request<{ webhook_id: string }>, res: Response): Promise<Webhook> {
    const webhook = await findWebhook(db, accountOf(res), webhookIdOf(req));
    if (!webhook) throw webhookNotFound();
    return webhook;
  }

  /** The database already holds the replay as due: a failure here only delays it until the sweeper's next pass. */
  async function queueReplay(due: DueDelivery): Promise<void> {
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

  route('/')
    .get(async (req, res) => {
      const query = parseInput(webhookListQuerySchema, req.query);
      const page = await listWebhooks(db, { accountId: accountOf(res), ...query });
      res.json({
        object: 'list',
        has_more: page.hasMore,
        data: page.webhooks.map(toListedWebhook),
      } satisfies WebhookPage);
    })
    .post(async (req, res) => {
      const body = parseInput(createWebhookBodySchema, req.body);
      const endpoint = await checkedEndpoint(body.endpoint);
      const webhook = await createWebhook(db, { accountId: accountOf(res), endpoint, events: body.events });
      res
        .status(201)
        .json({ object: 'webhook', id: webhook.id, signing_secret: webhook.signingSecret } satisfies WebhookSecret);
    })
    .all(methodNotAllowed('GET', 'POST'));

  route('/:webhook_id')
    .get(async (req, res) => {
      res.json(toWebhookResource(await requireWebhook(req, res)) satisfies WebhookResource);
    })
    .patch(async (req, res) => {
      const id = webhookIdOf(req);
      const body = parseInput(updateWebhookBodySchema, req.body);
      const endpoint = body.endpoint === undefined ? undefined : await checkedEndpoint(body.endpoint);
      const updated = await updateWebhook(db, accountOf(res), id, { ...body, endpoint });
      if (!updated) throw webhookNotFound();
      res.json({ object: 'webhook', id: updated.id } satisfies WebhookRef);
    })
    .delete(async (req, res) => {
      const id = webhookIdOf(req);
      if (!(await removeWebhook(db, accountOf(res), id))) throw webhookNotFound();
      res.json({ object: 'webhook', id, deleted: true } satisfies WebhookRemoval);
    })
    .all(methodNotAllowed('GET', 'PATCH', 'DELETE'));

  route('/:webhook_id/signing-secret/rotate')
    .post(async (req, res) => {
      const rotated = await rotateSigningSecret(db, accountOf(res), webhookIdOf(req));
      if (!rotated) throw webhookNotFound();
      res.json({ object: 'webhook', id: rotated.id, signing_secret: rotated.signingSecret } satisfies WebhookSecret);
    })
    .all(methodNotAllowed('POST'));

  route('/:webhook_id/events')
    .get(async (req, res) => {
      const webhook = await requireWebhook(req, res);
      const query = parseInput(eventListQuerySchema, req.query);
      try {
        const page = await listDeliveries(db, webhook.id, query);
        res.json({
          object: 'list',
          has_more: page.hasMore,
          data: page.deliveries.map(toEventLogEntry),
        } satisfies EventLogPage);
      } catch (error) {
        if (error instanceof UnknownCursorError)
          throw invalidField(error.parameter, 'is not an event of this webhook.');
        throw error;
      }
    })
    .all(methodNotAllowed('GET'));

  route('/:webhook_id/events/:event_id')
    .get(async (req, res) => {
      const webhook = await requireWebhook(req, res);
      const delivery = await findDelivery(db, webhook.id, eventIdOf(req));
      if (!delivery) throw eventNotFound();
      res.json(toWebhookEventResource(delivery) satisfies WebhookEventResource);
    })
    .all(methodNotAllowed('GET'));

  route('/:webhook_id/events/:event_id/replay')
    .post(async (req, res) => {
      const webhook = await requireWebhook(req, res);
      const due = await replayDelivery(db, webhook.id, eventIdOf(req));
      if (!due) throw eventNotFound();
      await queueReplay(due);
      res.json({ object: 'webhook_event', id: due.deliveryId } satisfies WebhookEventRef);
    })
    .all(methodNotAllowed('POST'));

  route('/:webhook_id/events/:event_id/attempts')
    .get(async (req, res) => {
      const webhook = await requireWebhook(req, res);
      const delivery = await findDelivery(db, webhook.id, eventIdOf(req));
      if (!delivery) throw eventNotFound();
      const query = parseInput(attemptListQuerySchema, req.query);
      const page = await listAttempts(db, delivery.id, query);
      res.json({
        object: 'list',
        has_more: page.hasMore,
        data: page.attempts.map(toAttemptResource),
      } satisfies AttemptPage);
    })
    .all(methodNotAllowed('GET'));

  return router;
}
