/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements the service itself sends: a service function is run
 * against a Queryable that explains the first statement it is given instead of answering it, so the
 * plan is that of the service's own SQL and values, not of a copy of them.
 */
import type pg from 'pg';
import type { Queryable } from '../../src/db/database.js';

class Explained extends Error {
  constructor(readonly plan: unknown) {
    super('explained');
  }
}

/** The tables a full read of would cost in proportion to the size loaded. */
const BIG_TABLES = /^(suppressions|suppression_events(_\d{4}_\d{2})?|event_receipts)$/;

export interface PlanSummary {
  executionMs: number;
  planningMs: number;
  /** Whether the statement was compiled by JIT, which costs tens of ms whatever it reads. */
  jit: boolean;
  /** Big tables read whole (those with pages): what should not grow with the list but does. */
  seqScans: string[];
  /** Partitions of the audit trail the plan read (loops > 0). */
  partitionsRead: number;
  /** Partitions of the audit trail in the plan, read or not: each costs planning (and JIT) time. */
  partitionsPlanned: number;
  /** Each node as "<type> on <relation> [index]", in plan order. */
  nodes: string[];
  plan: unknown;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function summarise(explain: unknown): PlanSummary {
  const top = (explain as { Plan: PlanNode; 'Execution Time': number; 'Planning Time': number; JIT?: unknown }[])[0];
  if (!top) throw new Error('EXPLAIN returned no plan');
  const nodes: string[] = [];
  const seqScans = new Set<string>();
  const partitions = new Set<string>();
  const planned = new Set<string>();
  const walk = (node: PlanNode): void => {
    const relation = node['Relation Name'];
    nodes.push(
      `${node['Node Type']}${relation ? ` on ${relation}` : ''}${node['Index Name'] ? ` [${node['Index Name']}]` : ''}`,
    );
    if (relation?.startsWith('suppression_events_')) planned.add(relation);
    if (relation && (node['Actual Loops'] ?? 0) > 0) {
      // An empty partition (next month's) is read whole at no cost: only a scan that read pages counts.
      const blocks = (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0);
      if (node['Node Type'] === 'Seq Scan' && BIG_TABLES.test(relation) && blocks > 0) seqScans.add(relation);
      if (relation.startsWith('suppression_events_')) partitions.add(relation);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(top.Plan);
  return {
    executionMs: top['Execution Time'],
    planningMs: top['Planning Time'],
    jit: top.JIT !== undefined,
    seqScans: [...seqScans],
    partitionsRead: partitions.size,
    partitionsPlanned: planned.size,
    nodes,
    plan: explain,
  };
}

/**
 * The plan of the first statement `run` sends through the Queryable it is given that `pick` takes
 * (the others run as they are: a bound the statement needs, say). Statements that write are
 * explained too (EXPLAIN ANALYZE runs them): `client` should be in a transaction the caller rolls
 * back.
 */
export async function explainFirst(
  client: pg.ClientBase,
  run: (db: Queryable) => Promise<unknown>,
  pick: (text: string) => boolean = () => true,
): Promise<PlanSummary> {
  const explaining: Queryable = {
    async query<R extends pg.QueryResultRow>(config: pg.QueryConfig) {
      if (!pick(config.text)) return client.query<R>(config);
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>({
        text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${config.text}`,
        values: config.values,
      });
      throw new Explained(rows[0]?.['QUERY PLAN']);
    },
  };
  try {
    await run(explaining);
  } catch (error) {
    if (error instanceof Explained) return summarise(error.plan);
    throw error;
  }
  throw new Error('the function sent no statement to explain');
}

/** A line about a plan worth a look: a big table read whole, JIT, or many partitions read. */
export function planNote(name: string, summary: PlanSummary): string | null {
  const notes: string[] = [];
  if (summary.seqScans.length > 0) notes.push(`Seq Scan on ${summary.seqScans.join(', ')}`);
  if (summary.jit) notes.push('JIT-compiled');
  if (summary.partitionsPlanned > 3)
    notes.push(`${summary.partitionsPlanned} audit partitions planned, ${summary.partitionsRead} read`);
  return notes.length === 0 ? null : `${name}: ${notes.join('; ')} (${summary.executionMs.toFixed(1)} ms)`;
}
