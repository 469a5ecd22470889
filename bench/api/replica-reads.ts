/**
 * The API benchmarks with DATABASE_READ_URL set: the service reads from the replicas, on the bench's
 * own database there, once they have replayed the seed; and how many reads each side served, from
 * the service's own metrics.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../src/config.js';
import { databaseUrlFor } from '../../test/support/database-url.js';
import type { ChildServer } from './child-server.js';

/** How long the replicas may take to replay the seed before the bench gives up on them. */
const CATCH_UP_TIMEOUT_MS = 180_000;

/** `env` with DATABASE_READ_URL naming the bench's database on each configured replica (unchanged without one). */
export function withReadReplicas(config: Config, database: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (config.DATABASE_READ_URL === undefined) return env;
  return { ...env, DATABASE_READ_URL: config.DATABASE_READ_URL.map((url) => databaseUrlFor(url, database)).join(',') };
}

interface ReplicaReadiness {
  checks?: { replicas?: { replica: string; state: string; lag_ms: number | null }[] };
}

/** Each replica's state as the service's /ready shows it; empty without replicas. */
export async function replicaStates(serviceUrl: string): Promise<{ replica: string; state: string }[]> {
  const body = (await (await fetch(`${serviceUrl}/ready`)).json()) as ReplicaReadiness;
  return body.checks?.replicas ?? [];
}

/**
 * Resolves with the service once its every replica is read from (at once without replicas); stops
 * it and fails if they have not caught up in time.
 */
export async function replicasInUse(service: ChildServer, timeoutMs = CATCH_UP_TIMEOUT_MS): Promise<ChildServer> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(50)) {
    const states = await replicaStates(service.url);
    if (states.every(({ state }) => state === 'ok')) return service;
    if (Date.now() > deadline) {
      await service.stop();
      throw new Error(`the replicas did not catch up within ${timeoutMs / 1000} s: ${JSON.stringify(states)}`);
    }
  }
}

export interface ReadsServed {
  replica: number;
  primary: number;
  /** The primary's reads by why they were not a replica's. */
  primaryBy: Record<string, number>;
}

/** The service's `db_reads_total`, by where the reads were served. */
export async function readsServed(serviceUrl: string): Promise<ReadsServed> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  const served: ReadsServed = { replica: 0, primary: 0, primaryBy: {} };
  for (const match of text.matchAll(/^db_reads_total\{([^}]*)\} (\S+)$/gm)) {
    const labels = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const value = Number(match[2]);
    if (labels['target'] === 'replica') served.replica += value;
    else {
      served.primary += value;
      const reason = labels['reason'] ?? 'unknown';
      served.primaryBy[reason] = (served.primaryBy[reason] ?? 0) + value;
    }
  }
  return served;
}

/** What was served between two readings. */
export function servedBetween(before: ReadsServed, after: ReadsServed): ReadsServed {
  const primaryBy = Object.fromEntries(
    Object.entries(after.primaryBy)
      .map(([reason, count]) => [reason, count - (before.primaryBy[reason] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
  return { replica: after.replica - before.replica, primary: after.primary - before.primary, primaryBy };
}
