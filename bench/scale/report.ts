/**
 * The scale benchmark's table: one row per figure, one column per size, and the ratios of the
 * largest size to the smallest for the figures that should not grow with the list.
 */
import type { LoadFigures } from './load.js';
import type { ThreeWays } from './measure-filter.js';
import type { StepFigures } from './step.js';
import type { Latency } from './timing.js';
import { planNote, type PlanSummary } from './plans.js';

export interface StepResult {
  size: number;
  load: LoadFigures;
  vacuumMs: { suppressions: number; suppression_events: number };
  /** Bytes of the whole database after the step. */
  databaseBytes: number;
  figures: StepFigures;
}

const count = (n: number): string => n.toLocaleString('en-US');
const mb = (bytes: number): string => `${count(Math.round(bytes / 1024 / 1024))} MB`;
const ms = (value: number): string => `${value.toFixed(2)} ms`;
const ratio = (a: number, b: number): string => (b === 0 ? 'n/a' : (a / b).toFixed(2));

/** A plan's execution time, with its planning time and whether JIT compiled it. */
function planTime(plan: PlanSummary | undefined): string {
  if (!plan) return 'n/a';
  return `${plan.executionMs.toFixed(1)} (planning ${plan.planningMs.toFixed(1)}${plan.jit ? ', JIT' : ''})`;
}

const SHARES = [0.1, 0.02];

/** The filter's check figures at a share of listed addresses. */
function filterCheck(step: StepResult, share: number): ThreeWays {
  const found = step.figures.filter.checks.find((check) => check.share === share);
  if (!found) throw new Error(`no check at ${share} listed`);
  return found;
}

const threeWays = (figures: ThreeWays, cell: (side: Latency) => string): string =>
  `${cell(figures.filtered)} / ${cell(figures.unfiltered)} / ${cell(figures.bare)}`;

/** The rows of a layout's table: a label, then a cell per size. */
export function tableRows(steps: readonly StepResult[]): string[][] {
  const row = (label: string, cell: (step: StepResult) => string): string[] => [label, ...steps.map(cell)];
  const f = (step: StepResult) => step.figures;
  return [
    row(
      'load (added entries, COPY s, entries/s; keys and indexes built after)',
      (s) =>
        `${count(s.load.rows)}, ${(s.load.ms / 1000).toFixed(1)} s, ${count(Math.round(s.load.rowsPerSecond))}/s; ` +
        `${(s.load.rebuildMs / 1000).toFixed(1)} s`,
    ),
    row(
      'VACUUM (ANALYZE) suppressions / suppression_events',
      (s) =>
        `${(s.vacuumMs.suppressions / 1000).toFixed(1)} s / ${(s.vacuumMs.suppression_events / 1000).toFixed(1)} s`,
    ),
    row(
      'read into the cache before measuring (pg_prewarm): size, s',
      (s) => `${mb(f(s).warmed.bytes)}, ${(f(s).warmed.ms / 1000).toFixed(1)} s`,
    ),
    row(
      'lookup service: /s, p50, p99',
      (s) =>
        `${count(f(s).lookup.service.perSecond)}, ${ms(f(s).lookup.service.p50Ms)}, ${ms(f(s).lookup.service.p99Ms)}`,
    ),
    row(
      'lookup bare SQL: /s, p50, p99',
      (s) => `${count(f(s).lookup.bare.perSecond)}, ${ms(f(s).lookup.bare.p50Ms)}, ${ms(f(s).lookup.bare.p99Ms)}`,
    ),
    row(
      'check of 1,000 service: addresses/s, p50, p99',
      (s) =>
        `${count(f(s).check.service.perSecond * 1000)}, ${ms(f(s).check.service.p50Ms)}, ${ms(f(s).check.service.p99Ms)}`,
    ),
    row(
      'check of 1,000 bare `= ANY`: addresses/s, p50, p99',
      (s) => `${count(f(s).check.bare.perSecond * 1000)}, ${ms(f(s).check.bare.p50Ms)}, ${ms(f(s).check.bare.p99Ms)}`,
    ),
    row('first page: p50, p99', (s) => `${ms(f(s).firstPage.p50Ms)}, ${ms(f(s).firstPage.p99Ms)}`),
    row('page 90 % down: p50, p99', (s) => `${ms(f(s).deepPage.p50Ms)}, ${ms(f(s).deepPage.p99Ms)}`),
    row('deep page / first page (p50)', (s) => ratio(f(s).deepPage.p50Ms, f(s).firstPage.p50Ms)),
    row(
      'search by domain service / bare: p50, p99',
      (s) =>
        `${ms(f(s).searchDomain.service.p50Ms)}, ${ms(f(s).searchDomain.service.p99Ms)} / ${ms(f(s).searchDomain.bare.p50Ms)}, ${ms(f(s).searchDomain.bare.p99Ms)}`,
    ),
    row(
      'search by prefix service / bare: p50, p99',
      (s) =>
        `${ms(f(s).searchPrefix.service.p50Ms)}, ${ms(f(s).searchPrefix.service.p99Ms)} / ${ms(f(s).searchPrefix.bare.p50Ms)}, ${ms(f(s).searchPrefix.bare.p99Ms)}`,
    ),
    row(
      'export CSV: rows, service / bare COPY rows/s',
      (s) =>
        `${count(f(s).export.rows)}: ${count(f(s).export.serviceRowsPerSecond)} / ${count(f(s).export.bareRowsPerSecond)}`,
    ),
    row(
      'check filter: built in, keys, bytes (a key)',
      (s) =>
        `${(f(s).filter.buildMs / 1000).toFixed(1)} s, ${count(f(s).filter.keys)}, ${mb(f(s).filter.bytes)} (${(f(s).filter.bytes / Math.max(1, f(s).filter.keys)).toFixed(2)} B)`,
    ),
    ...SHARES.flatMap((share) => [
      row(`check of 1,000, ${share * 100} % listed, filter / off / bare: addresses/s`, (s) =>
        threeWays(filterCheck(s, share), (side) => count(side.perSecond * 1000)),
      ),
      row(`check of 1,000, ${share * 100} % listed, filter / off / bare: p99`, (s) =>
        threeWays(filterCheck(s, share), (side) => ms(side.p99Ms)),
      ),
    ]),
    row('lookup of a present address, filter / off / bare: /s, p99', (s) =>
      threeWays(f(s).filter.lookupPresent, (side) => `${count(side.perSecond)}, ${ms(side.p99Ms)}`),
    ),
    row('lookup of an absent address, filter / off / bare: /s, p99', (s) =>
      threeWays(f(s).filter.lookupAbsent, (side) => `${count(side.perSecond)}, ${ms(side.p99Ms)}`),
    ),
    row(
      'ingest, threshold on: events/s (no-op loop)',
      (s) => `${count(f(s).ingest.eventsPerSecond)} (${count(f(s).ingest.noopEventsPerSecond)})`,
    ),
    row('soft-bounce count of a batch (EXPLAIN ANALYZE): ms', (s) => planTime(f(s).plans.softBounceCount)),
    row('ingest statement of a batch (EXPLAIN ANALYZE): ms', (s) => planTime(f(s).plans.ingestRecord)),
    row(
      'suppressions: total / indexes',
      (s) => `${mb(f(s).sizes.suppressions.totalBytes)} / ${mb(f(s).sizes.suppressions.indexBytes)}`,
    ),
    row(
      'suppression_events (all months): total / indexes',
      (s) => `${mb(f(s).sizes.suppression_events.totalBytes)} / ${mb(f(s).sizes.suppression_events.indexBytes)}`,
    ),
    row(
      'event_receipts: total / indexes',
      (s) => `${mb(f(s).sizes.event_receipts.totalBytes)} / ${mb(f(s).sizes.event_receipts.indexBytes)}`,
    ),
    row('database', (s) => mb(s.databaseBytes)),
  ];
}

export interface Ratios {
  sizes: string;
  lookupP99: string;
  checkP99: string;
  /** At the largest size: a page 90 % down the list over the first page (p50). */
  deepOverFirstPage: string;
  ingestRate: string;
  /** The check with the filter, 2 % listed: its p99 at the largest size over the smallest, and over bare SQL's there. */
  filterCheckP99: string;
  filterOverBareP99: string;
}

/** The largest size's figures over the smallest's (50M / 1M on the full curve), and its deep page over its first. */
export function ratios(steps: readonly StepResult[]): Ratios | null {
  const first = steps[0]?.figures;
  const last = steps.at(-1)?.figures;
  if (!first || !last || steps.length < 2) return null;
  const deep = (f: StepFigures) => f.deepPage.p50Ms / f.firstPage.p50Ms;
  return {
    sizes: `${count(steps.at(-1)?.size ?? 0)} / ${count(steps[0]?.size ?? 0)}`,
    lookupP99: ratio(last.lookup.service.p99Ms, first.lookup.service.p99Ms),
    checkP99: ratio(last.check.service.p99Ms, first.check.service.p99Ms),
    deepOverFirstPage: deep(last).toFixed(2),
    ingestRate: ratio(last.ingest.eventsPerSecond, first.ingest.eventsPerSecond),
    filterCheckP99: ratio(
      filterCheck(steps.at(-1) as StepResult, 0.02).filtered.p99Ms,
      filterCheck(steps[0] as StepResult, 0.02).filtered.p99Ms,
    ),
    filterOverBareP99: ratio(
      filterCheck(steps.at(-1) as StepResult, 0.02).filtered.p99Ms,
      filterCheck(steps.at(-1) as StepResult, 0.02).bare.p99Ms,
    ),
  };
}

/** One line per plan worth a look, at each size. */
export function planNotes(steps: readonly StepResult[]): string[] {
  return steps.flatMap((step) =>
    Object.entries(step.figures.plans)
      .map(([name, plan]) => planNote(`${count(step.size)}: ${name}`, plan))
      .filter((note): note is string => note !== null),
  );
}
