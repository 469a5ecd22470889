/**
 * npm run bench:mail: the raw-message parser (src/mail/report/) against Sisimai's expectations on
 * its public corpus (test/fixtures/mail/corpus.json): agreement per field overall, for the
 * development and the held-out part, and per MTA style; then messages parsed per second on one core,
 * of wall time and of CPU time.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseMailMessage } from '../../src/mail/report/parse-mail-message.js';
import { markdownTable } from '../common/report.js';
import { readMailCorpus } from './corpus-rows.js';
import { hostileMessages } from './hostile-messages.js';
import { FIELDS, readMessage, scoreCorpus, share, type Tally } from './score.js';

const cell = (count: { agree: number; of: number }): string =>
  count.of === 0 ? '–' : `${(share(count) * 100).toFixed(1)} % (${count.agree}/${count.of})`;

const row = (name: string, tally: Tally): string[] => [name, ...FIELDS.map((field) => cell(tally[field]))];

/**
 * Messages parsed over the corpus, on this one thread, for about `ms`: per second of wall time, and
 * per second of this process's CPU time, which other work on a shared machine lowers less.
 */
async function throughput(messages: readonly Buffer[], ms: number): Promise<{ wall: number; cpu: number }> {
  let done = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  while (performance.now() - started < ms) {
    for (const message of messages) await parseMailMessage(message);
    done += messages.length;
  }
  const cpu = process.cpuUsage(cpuStarted);
  return { wall: done / ((performance.now() - started) / 1000), cpu: done / ((cpu.user + cpu.system) / 1e6) };
}

/** The slowest of the hostile 10 MB messages, best of three runs each, and how each ended. */
async function slowestHostile(): Promise<{ ms: number; name: string; refused: number; total: number }> {
  let slowest = { ms: 0, name: '' };
  let refused = 0;
  const messages = hostileMessages(10 * 1024 * 1024 - 4096);
  for (const { name, raw } of messages) {
    let best = Infinity;
    for (let run = 0; run < 3; run += 1) {
      const started = performance.now();
      try {
        await parseMailMessage(raw);
      } catch {
        if (run === 0) refused += 1;
      }
      best = Math.min(best, performance.now() - started);
    }
    if (best > slowest.ms) slowest = { ms: best, name };
  }
  return { ...slowest, refused, total: messages.length };
}

async function main(): Promise<void> {
  const rows = readMailCorpus();
  const scored = rows.filter((item) => item.records.length > 0);
  console.log(
    `bench:mail: ${rows.length} messages, ${scored.length} with Sisimai's expectations, ${os.cpus()[0]?.model ?? 'unknown CPU'} (${os.cpus().length} cores, shared), Node ${process.version}\n`,
  );
  const score = await scoreCorpus(rows);
  console.log('### Agreement with Sisimai\n');
  console.log(
    markdownTable(
      ['part', ...FIELDS],
      [
        row('all', score.overall),
        row('development', score.bySplit.development ?? score.overall),
        row('held out', score.bySplit.held_out ?? score.overall),
      ],
    ),
  );
  console.log('\n### Per MTA style (all parts)\n');
  console.log(
    markdownTable(
      ['style', ...FIELDS],
      Object.entries(score.byStyle)
        .sort(([left], [right]) => left.localeCompare(right))
        .map(([style, tally]) => row(style, tally)),
    ),
  );

  const messages = rows.map((item) => readMessage(item.file));
  await throughput(messages, 300);
  const speed = await throughput(messages, 3000);
  const bytes = messages.reduce((sum, message) => sum + message.length, 0);
  const hostile = await slowestHostile();
  console.log('\n### Speed\n');
  console.log(
    markdownTable(
      ['measure', 'value'],
      [
        ['messages parsed per second, one core', Math.round(speed.wall).toLocaleString('en')],
        ['messages parsed per CPU-second', Math.round(speed.cpu).toLocaleString('en')],
        ['mean message size', `${Math.round(bytes / messages.length).toLocaleString('en')} bytes`],
        [
          `slowest of ${hostile.total} hostile 10 MB messages (${hostile.refused} refused with a typed error)`,
          `${hostile.ms.toFixed(0)} ms (${hostile.name})`,
        ],
      ],
    ),
  );
}

await main();
