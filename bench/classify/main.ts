/**
 * npm run bench:classify: the bounce classifier under the default policy against the provider-label
 * rule on the labelled corpus (test/fixtures/bounces/), side by side: what each suppresses at once,
 * and by an address's third bounce, when it bounces the same way each time it is mailed; then each
 * target on the development part and the held-out part (corpus-split.ts); then per provider on the
 * same texts wrapped in each provider's payload, then its speed: classifications per second on one
 * core, and the slowest of a set of adversarial 2,000-character diagnostics.
 *
 * `-- --mismatches` lists the development rows the classifier decides otherwise than the corpus,
 * the rows a rule is written from; the held-out rows are never listed.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { BOUNCE_CATEGORIES } from '../../src/domain/bounce-categories.js';
import { classifyBounce, CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import { CORPUS_SPLITS } from './corpus-split.js';
import {
  classifierDecider,
  corpusItems,
  labelDecider,
  providerItems,
  readCorpus,
  score,
  share,
  withoutLabel,
  type CorpusItem,
  type CorpusRow,
  type Scores,
} from './corpus.js';
import { adversarialDiagnostics } from './adversarial.js';
import { markdownTable } from '../common/report.js';

const percent = (part: number, whole: number): string => `${(share(part, whole) * 100).toFixed(1)} %`;

/** The corpus's figures; `unlabelled` are the same rows with the provider's label left out. */
function sideBySide(title: string, classifier: Scores, label: Scores, unlabelled: Scores): string {
  return [
    `### ${title}`,
    '',
    markdownTable(
      ['', 'classifier', 'provider label'],
      [
        ['rows', String(classifier.rows), String(label.rows)],
        [
          `not dead addresses suppressed at once (of ${classifier.notDead})`,
          percent(classifier.wrongfulSuppressions, classifier.notDead),
          percent(label.wrongfulSuppressions, label.notDead),
        ],
        [
          `the same, labels left out (of ${unlabelled.notDead})`,
          percent(unlabelled.wrongfulSuppressions, unlabelled.notDead),
          '',
        ],
        [
          `dead addresses missed at once (of ${classifier.dead})`,
          percent(classifier.misses, classifier.dead),
          percent(label.misses, label.dead),
        ],
        [
          `dead addresses suppressed by their third bounce, a week apart (of ${classifier.dead})`,
          percent(classifier.deadByThird, classifier.dead),
          percent(label.deadByThird, label.dead),
        ],
        [
          `working addresses suppressed by their third bounce, a week apart (of ${classifier.working})`,
          percent(classifier.workingByThird, classifier.working),
          percent(label.workingByThird, label.working),
        ],
        [
          `sender-side decided sender_blocked (of ${classifier.senderSide})`,
          percent(classifier.senderBlocked, classifier.senderSide),
          percent(label.senderBlocked, label.senderSide),
        ],
      ],
    ),
  ].join('\n');
}

function confusionTable(scores: Scores): string {
  return markdownTable(
    ['expected \\ decided', ...BOUNCE_CATEGORIES],
    BOUNCE_CATEGORIES.map((expected) => [
      expected,
      ...BOUNCE_CATEGORIES.map((decided) => scores.confusion[expected]?.[decided] ?? 0),
    ]),
  );
}

const PARTS = [
  { name: 'all', keep: () => true },
  ...CORPUS_SPLITS.map((split) => ({
    name: split.replace('_', ' '),
    keep: (item: CorpusItem) => item.split === split,
  })),
];

/** Each target of issue 39 and of the corpus's own bars, on the whole corpus and on each part. */
function targetsByPart(items: readonly CorpusItem[]): string {
  const parts = PARTS.map(({ keep }) => {
    const mine = items.filter(keep);
    return {
      labelled: score(mine, classifierDecider),
      unlabelled: score(
        mine.map((item) => ({ ...item, evidence: withoutLabel(item.evidence) })),
        classifierDecider,
      ),
    };
  });
  const measure = (title: string, bar: string, of: (part: (typeof parts)[number]) => [number, number]) => [
    title,
    bar,
    ...parts.map((part) => {
      const [count, whole] = of(part);
      return `${percent(count, whole)} (${count}/${whole})`;
    }),
  ];
  return markdownTable(
    ['target', 'bar', ...PARTS.map((part) => part.name)],
    [
      measure('not dead addresses suppressed at once', '≤ 1 %, ≤ 2 %', ({ labelled }) => [
        labelled.wrongfulSuppressions,
        labelled.notDead,
      ]),
      measure('the same, labels left out', '≤ 1 %, ≤ 2 %', ({ unlabelled }) => [
        unlabelled.wrongfulSuppressions,
        unlabelled.notDead,
      ]),
      measure('dead addresses suppressed at once', '≥ 97 %, ≥ 90 %', ({ labelled }) => [
        labelled.dead - labelled.misses,
        labelled.dead,
      ]),
      measure('dead addresses suppressed by their third bounce', '≥ 98 %', ({ labelled }) => [
        labelled.deadByThird,
        labelled.dead,
      ]),
      measure('sender-side decided sender_blocked', '≥ 95 %', ({ labelled }) => [
        labelled.senderBlocked,
        labelled.senderSide,
      ]),
    ],
  );
}

/** The development rows decided otherwise than the corpus says, with what decided. */
function developmentMismatches(rows: readonly CorpusRow[]): string {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const lines: string[] = [];
  for (const item of corpusItems(rows)) {
    if (item.split !== 'development') continue;
    const decided = classifyBounce(item.evidence);
    if (decided.category === item.expected) continue;
    const row = byId.get(item.id) as CorpusRow;
    lines.push(
      `${item.id}\texpected ${item.expected}\tdecided ${decided.category} (${decided.rule})\t${row.status} ${row.reply_code}\t${row.diagnostic.slice(0, 300)}`,
    );
  }
  return lines.join('\n');
}

/**
 * Classifications over the corpus, on this one thread, for about `ms`: per second of wall time, and
 * per second of this process's CPU time, which other work on a shared machine lowers less.
 */
function throughput(ms: number): { wall: number; cpu: number } {
  const evidence = corpusItems(readCorpus()).map((item) => item.evidence);
  let done = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  while (performance.now() - started < ms) {
    for (const item of evidence) classifyBounce(item);
    done += evidence.length;
  }
  const cpu = process.cpuUsage(cpuStarted);
  return { wall: done / ((performance.now() - started) / 1000), cpu: done / ((cpu.user + cpu.system) / 1e6) };
}

/** The slowest of the adversarial diagnostics, best of five runs each, in microseconds. */
function slowestAdversarial(): { micros: number; name: string } {
  let slowest = { micros: 0, name: '' };
  for (const { name, text } of adversarialDiagnostics()) {
    let best = Infinity;
    for (let run = 0; run < 5; run += 1) {
      const started = performance.now();
      classifyBounce({ type: 'permanent', status: '5.0.0', diagnostic: text });
      best = Math.min(best, performance.now() - started);
    }
    if (best * 1000 > slowest.micros) slowest = { micros: best * 1000, name };
  }
  return slowest;
}

function main(): void {
  const rows = readCorpus();
  if (process.argv.includes('--mismatches')) {
    console.log(developmentMismatches(rows));
    return;
  }
  const items = corpusItems(rows);
  console.log(
    `bench:classify: classifier ${CLASSIFIER_VERSION}, ${rows.length} corpus rows, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}\n`,
  );
  const classifier = score(items, classifierDecider);
  const unlabelled = score(
    items.map((item) => ({ ...item, evidence: withoutLabel(item.evidence) })),
    classifierDecider,
  );
  console.log(sideBySide('The corpus', classifier, score(items, labelDecider), unlabelled));
  console.log('\n### Targets, on the development and the held-out part (held out by source)\n');
  console.log(
    `The bars: the corpus's own, then issue 39's. Rows of ${items.filter((item) => item.split === 'held_out').length} held out.\n`,
  );
  console.log(targetsByPart(items));
  console.log(`\nConfusion (classifier):\n\n${confusionTable(classifier)}\n`);

  const wrapped = providerItems(rows);
  const providers = [...new Set(wrapped.map((item) => item.provider))];
  console.log('### Per provider, through its own payload and mapping\n');
  console.log(
    markdownTable(
      ['provider', 'rows', 'wrongful suppressions: classifier', 'label', 'misses: classifier', 'label'],
      providers.map((provider) => {
        const mine = wrapped.filter((item) => item.provider === provider);
        const ours = score(mine, classifierDecider);
        const theirs = score(mine, labelDecider);
        return [
          provider,
          mine.length,
          ours.wrongfulSuppressions,
          theirs.wrongfulSuppressions,
          ours.misses,
          theirs.misses,
        ];
      }),
    ),
  );

  // Warm the code paths before timing them.
  throughput(300);
  const speed = throughput(3000);
  const slowest = slowestAdversarial();
  console.log(`\n### Speed\n`);
  console.log(
    markdownTable(
      ['measure', 'value'],
      [
        ['classifications per second, one core', Math.round(speed.wall).toLocaleString('en')],
        ['classifications per CPU-second', Math.round(speed.cpu).toLocaleString('en')],
        ['slowest adversarial 2,000-character diagnostic', `${slowest.micros.toFixed(1)} µs (${slowest.name})`],
      ],
    ),
  );
}

main();
