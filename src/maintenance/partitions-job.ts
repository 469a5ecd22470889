import type { Queue } from 'bullmq';
import type { Database } from '../db/database.js';
import { createMonthPartitions } from '../db/month-partitions.js';
import { applyAuditRetention } from '../events/audit-partitions.js';
import { scheduleMaintenance } from '../queues.js';
import { applyWebhookLogRetention } from '../webhooks/log-partitions.js';

/**
 * The maintenance job that keeps the tables partitioned by month (src/db/month-partitions.ts): it
 * creates next month's partitions, and drops the months past their retention (the audit trail's
 * when `AUDIT_RETENTION_DAYS` is set, the webhook log's after 30 days).
 */
export const PARTITIONS_JOB = 'month-partitions';
/** Hourly: the migrations and every process start create next month's partitions too, so runs can be missed for weeks. */
export const PARTITIONS_EVERY_MS = 3_600_000;

export interface PartitionsResult {
  created: string[];
  dropped: string[];
  /** Audit records copied to the kept table from the dropped months. */
  kept: number;
  /** Webhook log months past their retention kept for a delivery still being tried. */
  held: string[];
}

export async function maintainPartitions(
  db: Database,
  auditRetentionDays: number | undefined,
  now: Date = new Date(),
): Promise<PartitionsResult> {
  const created = await createMonthPartitions(db, undefined, now);
  const audit =
    auditRetentionDays === undefined
      ? { dropped: [], kept: 0 }
      : await applyAuditRetention(db, auditRetentionDays, now);
  const webhooks = await applyWebhookLogRetention(db, undefined, now);
  return { created, dropped: [...audit.dropped, ...webhooks.dropped], kept: audit.kept, held: webhooks.held };
}

/** Registers (or updates) the job's scheduler (see `scheduleMaintenance`). */
export async function schedulePartitions(queue: Queue, everyMs: number = PARTITIONS_EVERY_MS): Promise<void> {
  await scheduleMaintenance(queue, PARTITIONS_JOB, everyMs);
}
