import type { SuppressionResource } from '../contract/suppression.js';
import type { Origin } from '../domain/origins.js';
import type { Scope } from '../domain/scope.js';

export interface Suppression {
  id: string;
  accountId: string;
  email: string;
  origin: Origin;
  sourceId: string | null;
  scope: Scope;
  createdAt: Date;
}

/** An entry as the API, the export and the change events show it. */
export function toSuppressionResource(suppression: Suppression): SuppressionResource {
  return {
    object: 'suppression',
    id: suppression.id,
    email: suppression.email,
    origin: suppression.origin,
    source_id: suppression.sourceId,
    scope: suppression.scope,
    created_at: suppression.createdAt.toISOString(),
  };
}
