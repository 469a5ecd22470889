import type { SuppressionResource } from '../contract/suppression.js';

export const ORIGINS = ['bounce', 'complaint', 'manual'] as const;
export type Origin = (typeof ORIGINS)[number];

export interface Suppression {
  id: string;
  accountId: string;
  email: string;
  origin: Origin;
  sourceId: string | null;
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
    created_at: suppression.createdAt.toISOString(),
  };
}
