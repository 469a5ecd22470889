import { EXAMPLE_DSN } from '../../api/messages/example-message.js';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { settingsCommand } from '../../cli/commands/settings.js';
import { runReclassification } from '../../src/bounces/reclassify.js';
import { AUDIT_OUTCOMES } from '../../src/contract/audit-record.js';
import { createMonthPartitions } from '../../src/db/month-partitions.js';
import { newId } from '../../src/domain/ids.js';
import { returnPathFor } from '../../src/mail/return-paths/address.js';
import { recordAttempt } from '../../src/webhooks/delivery-repository.js';
import { dispatchChanges } from '../../src/webhooks/dispatcher.js';
import { DocumentRun, type Given, type NotRun } from '../support/documented-examples.js';
import { curlExamples, curlRequest, type CurlExample } from '../support/markdown-examples.js';
import { answerProblems, type RealAnswer } from '../support/shown-answers.js';
import { useTestApp } from '../support/test-app.js';

/**
 * The HTTP examples of the README and of docs/api.md, sent as they are written (their commands
 * parsed out of the documents' fenced blocks) to a real server, each document on a fresh
 * database's accounts from its first example to its last, and each answer compared with the one
 * the document shows. What an example needs that its document does not show being made (an
 * address on the list, a bounce recorded yesterday) is made by a given just before it.
 */

const app = useTestApp({
  queues: true,
  redis: 'live',
  rateLimitPerSecond: 10_000,
  webhooks: { allowPrivateEndpoints: true, queue: () => Promise.resolve() },
  env: { BOUNCE_DOMAINS: 'bounces.example.com', PUBLIC_BASE_URL: 'https://mail.example.com' },
});

/** The account's return-path secret in docs/api.md: that of docs/mail.md's worked example. */
const WORKED_SECRET = { id: Buffer.from('2c8d9a41', 'hex'), secret: Buffer.from([...Array(32).keys()]) };

const SPAMHAUS = 'smtp; 550 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org';
const USER_UNKNOWN = 'smtp; 550 5.1.1 user unknown';
const S3150 =
  "smtp; 550 5.7.1 Unfortunately, messages from [203.0.113.7] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).";

const README_GIVENS: Given[] = [
  {
    before: '"emails":["Bounced@Example.com"',
    setup: (run) => run.add([{ email: 'bounced@example.com' }]),
  },
];

const API_GIVENS: Given[] = [
  {
    before: "suppressions?email=jane*'",
    account: 'another',
    setup: async (run) => {
      await run.bounces([
        {
          email: 'jane.doe@example.com',
          eventId: 'ses-0102018f5e2c9b1a-7d1c',
          sourceId: '5d1e9f0c-6a4b-4f7e-9c3d-2b8a1e0f4c6d',
          occurredAt: '2026-11-23T01:40:46.134Z',
          status: '5.1.1',
          diagnostic: USER_UNKNOWN,
        },
        {
          email: 'jane.smith@example.org',
          sourceId: '8b3f2a1c-4d5e-4f60-a7b8-c9d0e1f2a3b4',
          status: '5.1.1',
          diagnostic: USER_UNKNOWN,
        },
      ]);
      await run.api('POST', '/suppressions/batch/add', {
        emails: ['jane@mail.example.com', 'bob@example.com', 'carol@example.com'],
      });
    },
  },
  {
    before: "export?format=csv&origin=bounce'",
    account: 'exports',
    setup: async (run) => {
      await run.bounces([
        {
          email: 'jane@example.com',
          sourceId: '4ef9a6a0-2c3a-4a8e-9f0e-6f1f3bd0c7d2',
          status: '5.1.1',
          diagnostic: USER_UNKNOWN,
        },
      ]);
      await run.add([{ email: '=1+1@example.com', scope: '-promo' }]);
    },
  },
  {
    before: "imports?origin=bounce'",
    account: 'imports',
    shapeOnly: 'the document shows one moment of a run over a file of 50,003 lines, which the test does not send',
  },
  {
    before: 'suppressions/imports/01a20662-f2db-7481-a0b7-02879fcdcf6d',
    shapeOnly: 'the same import, finished',
  },
  { before: "suppressions/jane.doe+news@example.com'", account: 'acme' },
  {
    before: "suppressions/complained@example.com' -H",
    setup: (run) => run.add([{ email: 'complained@example.com', origin: 'complaint' }]),
  },
  { before: "-X DELETE 'http://127.0.0.1:3000/suppressions/jane.doe@example.com'", account: 'another' },
  { before: '"emails":["carol@example.com","nobody@example.com"]', account: 'acme' },
  {
    before: '"emails":["Bounced@Example.com"',
    setup: (run) => run.add([{ email: 'bounced@example.com' }]),
  },
  {
    before: "webhooks?limit=1'",
    setup: (run) =>
      run.api('POST', '/webhooks', { endpoint: 'https://hooks.example.com/audit', events: ['suppression.removed'] }),
  },
  {
    // The webhook was disabled by the example before, which gave up its deliveries: enabled again,
    // it is sent the one change that the event log then shows, whose first attempt failed.
    before: '151f3d7467fa/events -H',
    setup: async (run) => {
      const webhook = run.ids.realOf('01a205de-1b3a-7059-b718-151f3d7467fa');
      await run.api('PATCH', `/webhooks/${webhook}`, { status: 'enabled' });
      await run.api('POST', '/suppressions', { email: 'jane@example.com' });
      await dispatchChanges(run.db, 100);
      const events = await run.api('GET', `/webhooks/${webhook}/events`);
      await recordAttempt(run.db, {
        deliveryId: events.data[0].id,
        attempt: 0,
        httpStatusCode: 503,
        response: 'Service Unavailable',
        sentAt: new Date(),
        durationMs: 80,
        status: 'attempting',
        nextAttemptAt: new Date(Date.now() + 12_000),
      });
    },
  },
  {
    before: '"recipients":["Reader@Example.com"',
    setup: async (run) => {
      await run.db.query({
        text: 'INSERT INTO return_path_secrets (id, account_id, secret) VALUES ($1, $2, $3)',
        values: [WORKED_SECRET.id, run.account.accountId, WORKED_SECRET.secret],
      });
    },
  },
  { before: '{"bounces":[{"status":"5.7.1"', account: 'fresh' },
  {
    // The legacy bounce was suppressed on its label before bounces were classified; the others
    // were decided by the classifier under the default settings.
    before: "bounces/summary?since=2026-11-22T00:00:00Z'",
    account: 'bounces',
    at: '2026-11-25T02:28:52.383Z',
    setup: async (run) => {
      const entry = newId();
      await run.db.query({
        text: `INSERT INTO suppressions (id, account_id, email, origin, source_id) VALUES ($1, $2, 'pat@hotmail.com', 'bounce', $3)`,
        values: [entry, run.account.accountId, 'f3e5396e-ab87-49a4-ae53-6997cadbe788'],
      });
      await createMonthPartitions(run.db, ['suppression_events'], new Date('2026-11-22T02:28:52.327Z'));
      await run.db.query({
        text: `INSERT INTO suppression_events (account_id, event_id, type, email, source_id, bounce_type, bounce_sub_type,
                 bounce_status, bounce_diagnostic, suppression_id, outcome, occurred_at, received_at)
               VALUES ($1, 'ses-legacy-0001', 'bounce', 'pat@hotmail.com', $2, 'permanent', 'General', '5.7.1', $3, $4,
                 'suppressed', $5, $5)`,
        values: [
          run.account.accountId,
          'f3e5396e-ab87-49a4-ae53-6997cadbe788',
          S3150,
          entry,
          '2026-11-22T02:28:52.327Z',
        ],
      });
      const at = (minute: number) => `2026-11-25T01:${String(minute).padStart(2, '0')}:00.000Z`;
      await run.bounces([
        { email: 'lee@example.net', status: '5.1.1', diagnostic: USER_UNKNOWN, receivedAt: at(1) },
        { email: 'kim@example.net', status: '5.1.1', diagnostic: USER_UNKNOWN, receivedAt: at(2) },
        {
          email: 'sam@example.net',
          type: 'transient',
          status: '4.2.2',
          diagnostic: 'smtp; 452 4.2.2 Mailbox full',
          receivedAt: at(3),
        },
        { email: 'alex@outlook.com', status: '5.7.1', diagnostic: SPAMHAUS, receivedAt: at(4) },
        { email: 'robin@outlook.com', status: '5.7.1', diagnostic: S3150, receivedAt: at(5) },
        {
          email: 'chris@gmail.com',
          status: '5.7.26',
          diagnostic: 'smtp; 550 5.7.26 Unauthenticated email from example.com is not accepted due to its DMARC policy',
          receivedAt: at(6),
        },
      ]);
    },
  },
  {
    before: 'reclassifications/01a21088-dc70-70a0-b17d-4c2e060210fe -H',
    setup: (run) => runReclassification(run.db, run.ids.realOf('01a21088-dc70-70a0-b17d-4c2e060210fe')),
  },
  { before: '/console/session', account: 'acme' },
];

const API_NOT_RUN: NotRun[] = [
  {
    command: "-H 'Idempotency-Key: 3f1c…'",
    reason: 'its key is cut short and it shows no answer; test/integration/idempotency.test.ts sends keys',
  },
];

/** The files the examples send (`--data-binary @file`), made for the account in use. */
const FILES: Record<string, (run: DocumentRun) => string> = {
  'bounces.csv': () => 'email\nrow@example.net\nnot-an-address\n',
  // The endpoints' documented DSN, come back to the return path of gone@example.org.
  'bounce.eml': () =>
    EXAMPLE_DSN.replace(
      /^To: .*$/m,
      `To: ${returnPathFor(WORKED_SECRET, { recipient: 'gone@example.org', localPart: 'bounces', domain: 'bounces.example.com' })}`,
    ),
};

const DOCUMENTS = [
  { file: 'README.md', account: 'readme', givens: README_GIVENS, notRun: [] as NotRun[] },
  { file: 'docs/api.md', account: 'acme', givens: API_GIVENS, notRun: API_NOT_RUN },
];

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The example sent as its document writes it, with the ids met so far and the account's keys. */
async function send(run: DocumentRun, example: CurlExample, given: Given | undefined): Promise<RealAnswer> {
  const request = curlRequest(run.ids.substitute(example.command), {
    TOKEN: run.account.token,
    SENDING_TOKEN: run.account.sendingToken,
  });
  const url = new URL(request.url);
  const file = request.bodyFile === undefined ? undefined : FILES[request.bodyFile];
  if (request.bodyFile !== undefined && !file) throw new Error(`The test has no file ${request.bodyFile}.`);
  if (given?.at) vi.useFakeTimers({ toFake: ['Date'], now: new Date(given.at) });
  try {
    const response = await fetch(`${app.server.url}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: file ? file(run) : request.body,
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } finally {
    vi.useRealTimers();
  }
}

const what = (example: CurlExample) => {
  const request = curlRequest(example.command, { TOKEN: '', SENDING_TOKEN: '' });
  return `${request.method} ${new URL(request.url).pathname}`;
};

for (const document of DOCUMENTS) {
  const examples = curlExamples(document.file, read(document.file));
  const givenOf = (example: CurlExample) => document.givens.find((given) => example.command.includes(given.before));
  const skipped = (example: CurlExample) => document.notRun.some((not) => example.command.includes(not.command));

  describe(`the examples of ${document.file}`, () => {
    let run: DocumentRun;
    beforeAll(async () => {
      run = new DocumentRun(app.database.db, app.server.url);
      await run.use(document.account);
    });

    it('when the document is read, then each given and each example left out names exactly one example', () => {
      expect(examples.length).toBeGreaterThan(5);
      for (const piece of [
        ...document.givens.map((given) => given.before),
        ...document.notRun.map((not) => not.command),
      ]) {
        const matching = examples.filter((example) => example.command.includes(piece));
        expect(
          matching.map((example) => `${example.file}:${example.line}`),
          piece,
        ).toHaveLength(1);
      }
      expect(examples.filter((example) => example.shown === '' && !skipped(example))).toEqual([]);
    });

    for (const example of examples.filter((candidate) => !skipped(candidate))) {
      it(`when ${example.file}:${example.line} ${what(example)} is sent, then the service answers as the document shows`, async () => {
        const given = givenOf(example);
        if (given?.account) await run.use(given.account);
        await given?.setup?.(run);

        const answer = await send(run, example, given);

        const problems = answerProblems(example.shown, answer, {
          ids: run.ids,
          includeHeaders: example.command.includes(' -i '),
          shapeOnly: given?.shapeOnly !== undefined,
        });
        expect(problems, `${example.command}\n${answer.status} ${answer.text}`).toEqual([]);
      });
    }
  });
}

describe('the words of the documents', () => {
  it('when docs/api.md lists a history record’s outcomes, then it names every one the service records', () => {
    const row = read('docs/api.md')
      .split('\n')
      .find((line) => line.startsWith('| `outcome`'));
    for (const outcome of AUDIT_OUTCOMES) expect(row, outcome).toContain(`\`${outcome}\``);
  });

  it('when docs/operations.md describes `settings set`, then it names each of its options and each field of its answer', async () => {
    const operations = read('docs/operations.md');
    const context = {
      env: {},
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      exitCode: 0,
    };
    const set = settingsCommand(context).commands.find((command) => command.name() === 'set')!;
    for (const option of set.options.map((candidate) => candidate.long!)) expect(operations, option).toContain(option);
    const settings = await new DocumentRun(app.database.db, app.server.url).use('operations');
    const answer = await fetch(`${app.server.url}/settings/suppressions`, {
      headers: { authorization: `Bearer ${settings.token}` },
    });
    for (const field of Object.keys((await answer.json()) as object).filter((key) => key !== 'object')) {
      expect(operations, field).toContain(field);
    }
  });
});
