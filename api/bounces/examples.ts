import { BOUNCE_CATEGORIES } from '../../src/domain/bounce-categories.js';
import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';

/** A finished run, as the documentation shows it. */
export const exampleReclassification = {
  object: 'bounce_reclassification',
  id: '019cebab-8995-77f7-9262-77a618303564',
  status: 'completed',
  dry_run: false,
  classifier_version: CLASSIFIER_VERSION,
  entries_total: 1204,
  entries_examined: 1204,
  entries_without_evidence: 12,
  records_examined: 1873,
  lifted: 958,
  lifted_by_category: { sender_blocked: 951, delivery_failure: 7 },
  records_by_category: { invalid_address: 236, sender_blocked: 1612, delivery_failure: 25 },
  error: null,
  created_at: '2026-11-25T09:14:02.114Z',
  started_at: '2026-11-25T09:14:02.301Z',
  finished_at: '2026-11-25T09:14:04.870Z',
};

/** Counts by category: zero but for those given. */
export const zerosBut = (counts: Partial<Record<(typeof BOUNCE_CATEGORIES)[number], number>>) => ({
  ...Object.fromEntries(BOUNCE_CATEGORIES.map((name) => [name, 0])),
  ...counts,
});
