/** What one step of the scale benchmark is given, and the figures it measures. */
import type pg from 'pg';
import type { Database } from '../../src/db/database.js';
import type { FilterFigures } from './measure-filter.js';
import type { PlanSummary } from './plans.js';
import type { Latency, Versus } from './timing.js';
import type { WarmCache } from './warm-cache.js';

/** The soft-bounce rule the benchmark sets on every account. */
export const SOFT_BOUNCE_RULE = { threshold: 3, windowDays: 7 } as const;

export interface StepContext {
  /** The service's database, as the API and the worker open it. */
  db: Database;
  /** Its URL, for the check filter's own connections. */
  url: string;
  /** A bare pool on the same database, for the baselines. */
  bare: pg.Pool;
  accountIds: readonly string[];
  /** Entries loaded. */
  size: number;
  /** The end of the two years the entries were made in (ms). */
  end: number;
  seconds: number;
  connections: number;
  events: number;
  exportCap: number;
}

export interface StepFigures {
  /** What was read into the cache before the step was measured (see warm-cache.ts). */
  warmed: WarmCache;
  lookup: Versus;
  /** Per check of 1,000 addresses; `perSecond` is checks per second. */
  check: Versus;
  firstPage: Latency;
  deepPage: Latency;
  searchDomain: Versus;
  searchPrefix: Versus;
  export: { rows: number; serviceRowsPerSecond: number; bareRowsPerSecond: number };
  /** Measured with the check filter running beside it (measure-filter.ts). */
  ingest: { events: number; eventsPerSecond: number; noopEventsPerSecond: number; outcomes: Record<string, number> };
  filter: FilterFigures;
  sizes: Record<'suppressions' | 'suppression_events' | 'event_receipts', { totalBytes: number; indexBytes: number }>;
  plans: Record<string, PlanSummary>;
}
