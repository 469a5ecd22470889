/** Realistic values for the document's examples: UUIDv7 ids, `created_at` with milliseconds. */

export const exampleIds = [
  '019cebab-8995-77f7-9262-77a618303564',
  '019cebab-8d7d-76a0-8f24-546e4de3bc59',
  '019cebab-9165-711e-8683-335430abe2ad',
] as const;

export const exampleSuppression = {
  object: 'suppression',
  id: exampleIds[0],
  email: 'bounced@example.com',
  origin: 'bounce',
  source_id: '019ceba9-0a44-7d3e-b8c1-3f2e8a9d6b10',
  created_at: '2026-03-14T09:26:53.589Z',
} as const;

export const exampleManualSuppression = {
  object: 'suppression',
  id: exampleIds[1],
  email: 'unsubscribed@example.org',
  origin: 'manual',
  source_id: null,
  created_at: '2026-03-14T09:26:54.589Z',
} as const;
