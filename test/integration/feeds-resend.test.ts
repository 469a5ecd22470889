import { describe, expect, it } from 'vitest';
import { accountEvents, useFeedApp } from '../support/feed-app.js';
import { deliveryId, describeFeedScenarios, fixture, jobsOf, suppression } from '../support/feed-contract.js';
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
  multiRecipient: {
    fixture: 'bounced-multiple-recipients.json',
    emails: ['delivered@resend.dev', 'bounced@resend.dev'],
    suppressed: true,
  },
  ignored: { fixture: 'delivered.json' },
});

const newFeed = () => app.newFeed('resend', { signingSecret: signer.secret });

describe('Resend webhooks', () => {
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
