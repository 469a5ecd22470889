import { describe, expect, it } from 'vitest';
import { accountEvents, useFeedApp } from '../support/feed-app.js';
import { deliveryId, describeFeedScenarios, fixture, jobsOf, recorded, suppression } from '../support/feed-contract.js';
import { resendSigner } from '../support/feed-signers.js';

const app = useFeedApp();
const signer = resendSigner();
const impostor = resendSigner();

const scenarios = describeFeedScenarios(app, {
  provider: 'resend',
  settings: () => ({ signingSecret: signer.secret }),
  sign: (payload, _created, { id, forged }) => ({
    body: payload,
    headers: (forged ? impostor : signer).headers(payload, { id }),
  }),
  permanent: { fixture: 'bounced-permanent.json', emails: ['delivered@resend.dev'] },
  transient: { fixture: 'bounced-transient.json', emails: ['delivered@resend.dev'] },
  complaint: { fixture: 'complained.json', emails: ['delivered@resend.dev'] },
  // One bounce of an email to two addresses whose text names neither: each is recorded, neither suppressed.
  multiRecipient: {
    fixture: 'bounced-unnamed-recipient.json',
    emails: ['delivered@resend.dev', 'bounced@resend.dev'],
    suppressed: false,
  },
  ignored: { fixture: 'delivered.json' },
});

const newFeed = () => app.newFeed('resend', { signingSecret: signer.secret });

describe('Resend webhooks', () => {
  it('when one bounce of an email to two addresses names one of them, then only that one is suppressed', async () => {
    const created = await newFeed();
    const body = fixture('resend', 'bounced-multiple-recipients.json');
    const answer = await app.send(created.feed, body, signer.headers(body, { id: deliveryId() }), scenarios.live());
    expect(answer.body).toMatchObject({ queued: 1, ignored: 1 });
    expect(await suppression(created, 'bounced@resend.dev')).toMatchObject({ origin: 'bounce' });
    expect((await created.account.api.get('/suppressions/delivered%40resend.dev')).status).toBe(404);
    const events = await accountEvents(app.database.db, created.account.accountId);
    expect(events.map((event) => event.email)).toEqual(['bounced@resend.dev']);
  });

  it('when Resend reports an address on its own suppression list, then it is recorded and not suppressed: an echo, not evidence', async () => {
    const created = await newFeed();
    const body = fixture('resend', 'bounced-suppressed.json');
    expect(
      (await app.send(created.feed, body, signer.headers(body, { id: deliveryId() }), scenarios.live())).status,
    ).toBe(200);
    const [stored] = await recorded(app, created.account.accountId, 1);
    expect(stored).toMatchObject({ email: 'delivered@resend.dev', outcome: 'not_suppressed' });
    expect((await created.account.api.get('/suppressions/delivered%40resend.dev')).status).toBe(404);
  });

  it('when the Svix scheme arrives under webhook-* header names, then it is verified the same way', async () => {
    const created = await newFeed();
    const body = fixture('resend', 'bounced-permanent.json');
    const headers = signer.headers(body, { id: deliveryId(), names: 'webhook' });
    expect((await app.send(created.feed, body, headers, scenarios.live())).status).toBe(200);
    const entry = await suppression(created, 'delivered@resend.dev');
    expect(entry).toMatchObject({ origin: 'bounce', source_id: JSON.parse(body).data.email_id });
  });

  it('when the Svix timestamp is more than 5 minutes old, then it answers 401 and queues nothing', async () => {
    const created = await newFeed();
    const body = fixture('resend', 'bounced-permanent.json');
    const headers = signer.headers(body, { timestamp: new Date(Date.now() - 301_000) });
    const answer = await app.send(created.feed, body, headers, scenarios.live());
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('more than 5 minutes');
    expect(await jobsOf(app, created.account.accountId)).toEqual([]);
  });

  it('when the event id is built, then it is the Svix message id and the recipient', async () => {
    const created = await newFeed();
    const body = fixture('resend', 'complained.json');
    const id = deliveryId();
    expect((await app.send(created.feed, body, signer.headers(body, { id }), scenarios.live())).status).toBe(200);
    await suppression(created, 'delivered@resend.dev');
    const [stored] = await accountEvents(app.database.db, created.account.accountId);
    expect(stored?.event_id).toBe(`resend:${id}:delivered@resend.dev`);
  });
});
