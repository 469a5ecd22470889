import type { SuppressionResource } from '../contract/suppression.js';
import type { Scope } from '../domain/scope.js';

export const ORIGINS = ['bounce', 'complaint', 'manual'] as const;
export type Origin = (typeof ORIGINS)[number];

export interface Suppression {
  id: string;
  accountId: string;
  email: string;
  origin: Origin;
  sourceId: string | null;
  scope: Scope;
  createdAt: Date;
}

export type { SuppressionResource };

export function toResource(suppression: Suppression): SuppressionResource {
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
