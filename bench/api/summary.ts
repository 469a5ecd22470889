/** `npm run bench`'s targets, and its figures as the rows of its markdown table. */
import type { CheckFigures } from './check-measure.js';
import type { SuiteResults } from './suite.js';

export const TARGETS = {
  lookupRatio: 1.0,
  lookupP99Factor: 1.0,
  checkRatio: 0.5,
  scopedCheckRatio: 0.9,
  listRatio: 1.2,
  ingestRatio: 0.9,
  importRatio: 0.9,
};

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
const yes = (met: boolean): string => (met ? 'yes' : 'NO');

/** The check's two rows of the table, without and with a scope: `npm run bench` and `bench:check` print them alike. */
export function checkRows(check: CheckFigures): string[][] {
  return [
    [
      'check POST /suppressions/check (1,000 per request)',
      `${check.addresses_per_s} addresses/s`,
      `${check.baseline_addresses_per_s} addresses/s (bare pg, same query)`,
      `${check.ratio}`,
      `≥ ${TARGETS.checkRatio}`,
      yes(check.ratio >= TARGETS.checkRatio),
    ],
    [
      'check with a scope (1,000 per request)',
      `${check.scoped_addresses_per_s} addresses/s`,
      `${check.addresses_per_s} addresses/s (the check without a scope)`,
      `${check.scoped_ratio}`,
      `≥ ${TARGETS.scopedCheckRatio}`,
      yes(check.scoped_ratio >= TARGETS.scopedCheckRatio),
    ],
  ];
}

/** A row for a figure its block did not measure: which block, and why. */
function notMeasured(figure: string, block: string, unfinished: SuiteResults['unfinished']): string[] {
  const reason = unfinished.find((entry) => entry.block === block)?.reason ?? 'not reached';
  return [figure, `unfinished: the ${block} block: ${reason.split('\n')[0]}`, '', '', '', 'NO'];
}

/** The run as a markdown table: figure, value, baseline, ratio, target, met. */
export function summaryRows(results: SuiteResults): (string | number)[][] {
  const { lookup, check, client, list, batch_add: batch, ingest, import: imported, tracing, unfinished } = results;
  const missing = (figure: string, block: string) => [notMeasured(figure, block, unfinished)];
  const lookupMet =
    lookup !== undefined &&
    lookup.ratio >= TARGETS.lookupRatio &&
    lookup.p99_ms <= TARGETS.lookupP99Factor * lookup.baseline_p99_ms;
  return [
    ...(lookup === undefined
      ? missing('lookup GET /suppressions/{email}', 'api')
      : [
          [
            'lookup GET /suppressions/{email}',
            `${lookup.rps} req/s, p50 ${lookup.p50_ms} ms, p99 ${lookup.p99_ms} ms`,
            `${lookup.baseline_rps} req/s, p99 ${lookup.baseline_p99_ms} ms`,
            `${lookup.ratio}`,
            `≥ ${TARGETS.lookupRatio}, p99 ≤ ${TARGETS.lookupP99Factor}× baseline`,
            yes(lookupMet),
          ],
        ]),
    ...(check === undefined ? missing('check POST /suppressions/check', 'api') : checkRows(check)),
    ...(client === undefined
      ? missing('client filterSendable', 'api')
      : [
          [
            'client filterSendable',
            `${client.addresses_per_s} addresses/s (${client.addresses} addresses)`,
            '',
            '',
            '',
            '',
          ],
        ]),
    ...(list === undefined
      ? missing('list p50, first vs deep page', 'api')
      : [
          [
            'list p50, first vs deep page',
            `deep ${list.deep_page_p50_ms} ms`,
            `first ${list.first_page_p50_ms} ms`,
            `${list.ratio}`,
            `≤ ${TARGETS.listRatio}`,
            yes(list.ratio <= TARGETS.listRatio),
          ],
        ]),
    ...(batch === undefined
      ? missing('batch add (100 per request)', 'api')
      : [['batch add (100 per request)', `${batch.addresses_per_s} addresses/s`, '', '', '', '']]),
    ...(ingest === undefined
      ? missing('ingest (event worker)', 'ingest')
      : [
          [
            'ingest (event worker)',
            `${ingest.events_per_s} events/s (${ingest.events} events)`,
            `${ingest.baseline_jobs_per_s} jobs/s (BullMQ no-op)`,
            `${ingest.ratio}`,
            `≥ ${TARGETS.ingestRatio}`,
            yes(ingest.ratio >= TARGETS.ingestRatio),
          ],
          [
            'ingest against its rows by COPY',
            `${ingest.events_per_s} events/s`,
            `${ingest.floor_jobs_per_s} jobs/s (the same rows by COPY, same queue)`,
            `${ingest.floor_ratio}`,
            '',
            '',
          ],
        ]),
    ...(imported === undefined
      ? missing('import (CLI, --wait)', 'import')
      : [
          [
            'import (CLI, --wait)',
            `${imported.addresses_per_s} addresses/s (${imported.addresses}), CLI peak RSS ${imported.peak_rss_mb} MB`,
            `${imported.copy_rows_per_s} entries/s (bare COPYs of the entries and their records; ` +
              `${imported.copy_entries_only_rows_per_s}/s the entries alone, ratio ${imported.ratio_entries_only})`,
            `${imported.ratio}`,
            `≥ ${TARGETS.importRatio}`,
            yes(imported.ratio >= TARGETS.importRatio),
          ],
        ]),
    ...(results.service_peak_rss_mb === undefined
      ? missing('service peak RSS', 'api')
      : [['service peak RSS', `${results.service_peak_rss_mb} MB`, '', '', '', '']]),
    ...(tracing === undefined ? missing('tracing on: lookup and check', 'api') : tracingRows(tracing)),
    ...(tracing?.ingest === undefined
      ? missing('tracing on: ingest, of its no-op', 'traced ingest')
      : [
          [
            'tracing on: ingest, of its no-op',
            `${tracing.ingest.events_per_s} events/s, ${tracing.ingest.ratio} of ${tracing.ingest.baseline_jobs_per_s} jobs/s`,
            `${tracing.ingest.ratio_off} of the no-op with tracing off`,
            `${round3(tracing.ingest.ratio / tracing.ingest.ratio_off)}`,
            '',
            '',
          ],
        ]),
  ];
}

function tracingRows(tracing: NonNullable<SuiteResults['tracing']>): string[][] {
  return [
    [
      'tracing on: lookup',
      `${tracing.lookup.rps_on} req/s, p99 ${tracing.lookup.p99_ms_on} ms`,
      `${tracing.lookup.rps_off} req/s, p99 ${tracing.lookup.p99_ms_off} ms (tracing off)`,
      `${tracing.lookup.ratio}`,
      '',
      '',
    ],
    [
      'tracing on: check',
      `${tracing.check.rps_on} req/s, p99 ${tracing.check.p99_ms_on} ms`,
      `${tracing.check.rps_off} req/s, p99 ${tracing.check.p99_ms_off} ms (tracing off)`,
      `${tracing.check.ratio}`,
      '',
      '',
    ],
  ];
}

export const SUMMARY_HEADER = ['figure', 'service', 'baseline', 'ratio', 'target', 'met'];
