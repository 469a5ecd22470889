import { z } from 'zod';
import { count, timestamp } from './fields.js';
import { pageOf } from './paging.js';

const id = z.uuid().meta({ description: 'Rule id (UUIDv7).', example: '019ceba7-2d4e-7c10-9a3b-5e6f7a8b9c0d' });

/** One rule of an account's allowlist: an address, or a whole domain. */
export const allowlistRuleSchema = z
  .object({
    object: z.literal('allowlist_rule'),
    id,
    email: z.string().nullable().meta({ description: 'The address the rule covers; `null` for a domain rule.' }),
    domain: z.string().nullable().meta({
      description: 'The domain whose addresses the rule covers (not its subdomains’); `null` for an address rule.',
    }),
    note: z.string().nullable().meta({ description: 'Why the rule is there, as its author wrote it.' }),
    created_at: timestamp,
  })
  .strict()
  .meta({ id: 'AllowlistRule' });
export type AllowlistRuleResource = z.output<typeof allowlistRuleSchema>;

export const allowlistRuleAddedSchema = allowlistRuleSchema
  .extend({
    covered_entries: count(
      'Entries already on the list (of any scope) that the rule covers: they stay until removed, and the check no longer reports them.',
    ),
  })
  .strict()
  .meta({ id: 'AllowlistRuleAdded' });
export type AllowlistRuleAdded = z.output<typeof allowlistRuleAddedSchema>;

export const allowlistPageSchema = pageOf(allowlistRuleSchema, {
  id: 'AllowlistRuleList',
  of: 'rules',
  order: 'Newest first.',
});
export type AllowlistPage = z.output<typeof allowlistPageSchema>;

export const allowlistRemovedSchema = z
  .object({ object: z.literal('allowlist_rule'), id, deleted: z.literal(true) })
  .strict()
  .meta({ id: 'AllowlistRuleRemoved' });
export type AllowlistRemoved = z.output<typeof allowlistRemovedSchema>;
