import type { Request, Response } from 'express';
import { EVENT_ID_PATTERN } from '../../src/contract/webhook-event.js';
import type { Database } from '../../src/db/database.js';
import { isUuid } from '../../src/domain/ids.js';
import { AppError, invalidField } from '../../src/errors.js';
import { endpointProblem, resolvedEndpointProblem } from '../../src/webhooks/endpoint-safety.js';
import { findDelivery, type LoggedDelivery } from '../../src/webhooks/event-log.js';
import { findWebhook } from '../../src/webhooks/webhook-repository.js';
import type { Webhook } from '../../src/webhooks/webhook.js';
import { accountOf } from '../http/authenticate.js';
import { pathParameter } from '../http/endpoints.js';
import type { WebhooksDeps } from './deps.js';

export const webhookNotFound = () => new AppError('not_found', 'Webhook not found.');
export const eventNotFound = () => new AppError('not_found', 'Webhook event not found.');

/**
 * The webhook id of the path, lower-cased. One that is not a UUID names no webhook: 404, as an
 * unknown one, rather than a 422 that would tell ids and non-ids apart for nothing.
 */
export function webhookIdOf(req: Request): string {
  const id = pathParameter(req, 'webhook_id');
  if (!isUuid(id)) throw webhookNotFound();
  return id.toLowerCase();
}

export function eventIdOf(req: Request): string {
  const id = pathParameter(req, 'event_id');
  if (!EVENT_ID_PATTERN.test(id)) throw eventNotFound();
  return id;
}

/** The account's webhook of the path, or a 404. */
export async function requireWebhook(db: Database, req: Request, res: Response): Promise<Webhook> {
  const webhook = await findWebhook(db, accountOf(res), webhookIdOf(req));
  if (!webhook) throw webhookNotFound();
  return webhook;
}

/** The endpoint as given, once it is one deliveries may go to; its host's addresses are looked up now too. */
export async function checkedEndpoint(
  endpoint: string,
  { allowPrivateEndpoints, privateCidrs }: Pick<WebhooksDeps, 'allowPrivateEndpoints' | 'privateCidrs'>,
): Promise<string> {
  const policy = { allowPrivate: allowPrivateEndpoints, privateCidrs };
  const problem = endpointProblem(endpoint, policy) ?? (await resolvedEndpointProblem(endpoint, policy));
  if (problem !== null) throw invalidField('endpoint', problem);
  return endpoint;
}

/** The event of the path in the log of the account's webhook of the path, or a 404. */
export async function requireDelivery(db: Database, req: Request, res: Response): Promise<LoggedDelivery> {
  const webhook = await requireWebhook(db, req, res);
  const delivery = await findDelivery(db, webhook.id, eventIdOf(req));
  if (!delivery) throw eventNotFound();
  return delivery;
}
