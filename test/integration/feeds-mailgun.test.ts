import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountEvents, useFeedApp } from '../support/feed-app.js';
import { describeFeedScenarios, drained, fixture, jobsOf, suppression } from '../support/feed-contract.js';
import { mailgunBody } from '../support/feed-signers.js';

const SIGNING_KEY = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';

const app = useFeedApp();
const eventData = (name: string): unknown => JSON.parse(fixture('mailgun', name))['event-data'];

const scenarios = describeFeedScenarios(app, {
  provider: 'mailgun',
  settings: () => ({ signingKey: SIGNING_KEY }),
  sign: (payload, _created, { forged }) => ({
    body: mailgunBody(forged ? 'another-key' : SIGNING_KEY, JSON.parse(payload)['event-data']),
    headers: {},
  }),
  permanent: { fixture: 'failed-permanent.json', emails: ['badrecipient@sample.mailgun.com'] },
  transient: { fixture: 'failed-temporary.json', emails: ['tempfailrecipient@sample.mailgun.com'] },
  complaint: { fixture: 'complained.json', emails: ['recipient@sample.mailgun.com'] },
  ignored: { fixture: 'delivered.json' },
});

const newFeed = () => app.newFeed('mailgun', { signingKey: SIGNING_KEY });

describe('Mailgun webhooks', () => {
  it('when a signed request is sent again with the same token, then the replay answers 401', async () => {
    const created = await newFeed();
    const body = mailgunBody(SIGNING_KEY, eventData('failed-permanent.json'));
    expect((await app.send(created.feed, body, {}, scenarios.live())).status).toBe(200);
    const replay = await app.send(created.feed, body, {}, scenarios.live());
    expect(replay.status).toBe(401);
    expect(replay.body.message).toContain('already used');
  });

  it('when 8 requests reuse one signature with different recipients at once, then exactly one is applied and the others answer as a replay', async () => {
    const created = await newFeed();
    const token = randomBytes(25).toString('hex');
    const timestamp = Math.floor(Date.now() / 1000);
    const recipients = Array.from({ length: 8 }, (_, index) => `replayed-${index}-${token.slice(0, 8)}@example.com`);
    const bodies = recipients.map((recipient, index) =>
      mailgunBody(
        SIGNING_KEY,
        { ...(eventData('failed-permanent.json') as object), id: `replayed-${index}`, recipient },
        { token, timestamp },
      ),
    );

    const answers = await Promise.all(bodies.map((body) => app.send(created.feed, body, {}, scenarios.live())));

    const applied = answers.flatMap((answer, index) => (answer.status === 200 ? [recipients[index]] : []));
    expect(applied).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.status).toBe(401);
      expect(answer.body.message).toContain('already used');
    }
    await drained(app, created.account.accountId);
    const events = await accountEvents(app.database.db, created.account.accountId);
    expect(events.map((event) => event.email)).toEqual(applied);
  });

  it('when the events could not be queued, then the provider’s retry with the same token lands', async () => {
    const created = await newFeed();
    const body = mailgunBody(SIGNING_KEY, eventData('failed-permanent.json'));
    const failing = await app.startApp({
      redis: 'live',
      queues: true,
      feeds: { publish: () => Promise.reject(new Error('the queue refused the events')) },
    });

    expect((await app.send(created.feed, body, {}, failing)).status).toBe(503);
    expect((await app.send(created.feed, body, {}, scenarios.live())).status).toBe(200);
    expect(await suppression(created, 'badrecipient@sample.mailgun.com')).toMatchObject({ origin: 'bounce' });
  });

  it('when Redis was down for a request, then the same request, token and all, lands on the retry', async () => {
    const created = await newFeed();
    const body = mailgunBody(SIGNING_KEY, eventData('failed-permanent.json'));
    const down = await app.startApp({ redis: 'unreachable', queues: true });
    expect((await app.send(created.feed, body, {}, down)).status).toBe(503);
    expect((await app.send(created.feed, body, {}, scenarios.live())).status).toBe(200);
    expect(await suppression(created, 'badrecipient@sample.mailgun.com')).toMatchObject({ origin: 'bounce' });
  });

  it('when the signed timestamp is more than 5 minutes off, then it answers 401 and queues nothing', async () => {
    const created = await newFeed();
    const stale = Math.floor(Date.now() / 1000) - 301;
    const body = mailgunBody(SIGNING_KEY, eventData('failed-permanent.json'), { timestamp: stale });
    const answer = await app.send(created.feed, body, {}, scenarios.live());
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('more than 5 minutes');
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
  });

  it('when the documented sample is sent with its own (old) signature, then it is refused', async () => {
    const created = await newFeed();
    const answer = await app.send(created.feed, fixture('mailgun', 'failed-permanent.json'), {}, scenarios.live());
    expect(answer.status).toBe(401);
  });
});
