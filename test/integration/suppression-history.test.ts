import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newKey } from '../support/accounts.js';
import { apiClient, expectError } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { ISO_MS, UUID_V7 } from '../support/formats.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { parseSuppressionEvent, type SuppressionEventInput } from '../../src/events/event-schema.js';
import { recordEventBatch } from '../../src/events/record-event-batch.js';
import { newId } from '../../src/domain/ids.js';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';

const app = useTestApp();

/** Records the events as the event worker would, in one batch: one statement, one `received_at`. */
async function record(...events: SuppressionEventInput[]): Promise<void> {
  const results = await recordEventBatch(app.database.db, events.map(parseSuppressionEvent));
  expect(results.map((result) => result.outcome)).not.toContain('unknown_account');
}

const eventIdsOf = (body: { data: Array<{ event_id: string }> }) => body.data.map((entry) => entry.event_id);

/** A bounce recorded for the address, then its removal through the API: the entry is gone, its history is not. */
async function bouncedThenRemoved(owner: ApiAccount) {
  const email = uniqueEmail();
  const bounce = bounceEvent(owner.accountId, email);
  await record(bounce);
  const { body: entry } = await owner.api.get(`/suppressions/${email}`);
  const removed = await owner.api.delete(`/suppressions/${email}`);
  expect(removed.status).toBe(200);
  expect((await owner.api.get(`/suppressions/${email}`)).status).toBe(404);
  return { email, bounce, suppressionId: entry.id as string };
}

describe('an address that bounced and was removed', () => {
  it('when its history is read by address, then it lists the removal, then the bounce, each in full', async () => {
    const owner = await newApiAccount(app);
    const { email, bounce, suppressionId } = await bouncedThenRemoved(owner);

    const response = await owner.api.get(`/suppressions/${encodeURIComponent(email.toUpperCase())}/events`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'list',
      has_more: false,
      data: [
        {
          object: 'suppression_event',
          event_id: expect.stringMatching(UUID_V7),
          type: 'removal',
          outcome: 'removed',
          email,
          scope: null,
          source_id: null,
          bounce: null,
          complaint: null,
          provider_message_id: null,
          removed_by_key_id: owner.keyId,
          removal_reason: null,
          reason: null,
          actor: { type: 'api_key', id: owner.keyId },
          suppression_id: suppressionId,
          occurred_at: null,
          received_at: expect.stringMatching(ISO_MS),
        },
        {
          object: 'suppression_event',
          event_id: bounce.event_id,
          type: 'bounce',
          outcome: 'suppressed',
          email,
          scope: null,
          source_id: bounce.source_id,
          bounce: {
            type: 'permanent',
            sub_type: 'general',
            status: '5.1.1',
            reply_code: null,
            diagnostic: 'smtp; 550 5.1.1 user unknown',
            provider: null,
            remote_mta: null,
            classification: {
              category: 'invalid_address',
              reason: 'user_unknown',
              rule: 'text:user unknown',
              version: CLASSIFIER_VERSION,
            },
          },
          complaint: null,
          provider_message_id: null,
          removed_by_key_id: null,
          removal_reason: null,
          reason: null,
          actor: { type: 'queue', id: null },
          suppression_id: suppressionId,
          occurred_at: bounce.occurred_at,
          received_at: expect.stringMatching(ISO_MS),
        },
      ],
    });
  });

  it('when its history is read by the removed entry’s id, then it is the same history', async () => {
    const owner = await newApiAccount(app);
    const { email, suppressionId } = await bouncedThenRemoved(owner);

    const byId = await owner.api.get(`/suppressions/${suppressionId.toUpperCase()}/events`);
    const byEmail = await owner.api.get(`/suppressions/${email}/events`);

    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(byEmail.body);
    expect(byId.body.data).toHaveLength(2);
  });
});

describe('an address on the list', () => {
  it('when it is read by the id of its entry, then its complaint is there with its feedback type', async () => {
    const owner = await newApiAccount(app);
    const email = uniqueEmail();
    const complaint = complaintEvent(owner.accountId, email);
    await record(complaint);
    const { body: entry } = await owner.api.get(`/suppressions/${email}`);

    const { body } = await owner.api.get(`/suppressions/${entry.id}/events`);

    expect(body.data).toEqual([
      expect.objectContaining({
        event_id: complaint.event_id,
        type: 'complaint',
        outcome: 'suppressed',
        bounce: null,
        complaint: { feedback_type: 'abuse' },
        suppression_id: entry.id,
      }),
    ]);
  });

  it('when it was added by hand, then its history holds its addition, made by the key that added it', async () => {
    const owner = await newApiAccount(app);
    const email = uniqueEmail();
    const { body: added } = await owner.api.post('/suppressions', { email, scope: 'newsletter' });

    for (const target of [email, added.id]) {
      const response = await owner.api.get(`/suppressions/${target}/events`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([
        expect.objectContaining({
          type: 'addition',
          outcome: 'suppressed',
          email,
          scope: 'newsletter',
          actor: { type: 'api_key', id: owner.keyId },
          suppression_id: added.id,
        }),
      ]);
    }
  });

  it('when an entry was put there before additions were recorded, then its history is an empty list, not a 404', async () => {
    const owner = await newApiAccount(app);
    const email = uniqueEmail();
    const [added] = await addSuppressions(app.database.db, owner.accountId, [
      { id: newId(), email, origin: 'manual', sourceId: null },
    ]);

    for (const target of [email, added!.id]) {
      const response = await owner.api.get(`/suppressions/${target}/events`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ object: 'list', has_more: false, data: [] });
    }
  });
});

describe('paging through a history', () => {
  /**
   * Six records, newest first: a later bounce, the removal, three bounces of one batch (one
   * `received_at`: ordered by event id, descending), the first bounce.
   */
  async function longHistory(owner: ApiAccount) {
    const email = uniqueEmail();
    const tag = randomUUID();
    const bounce = (suffix: string) => ({ ...bounceEvent(owner.accountId, email), event_id: `${tag}-${suffix}` });
    await record(bounce('a'));
    await record(bounce('c'), bounce('b'), bounce('d'));
    await owner.api.delete(`/suppressions/${email}`);
    await record(bounce('e'));
    const { body } = await owner.api.get(`/suppressions/${email}/events?limit=100`);
    const removal = body.data[1].event_id as string;
    return { email, order: [`${tag}-e`, removal, `${tag}-d`, `${tag}-c`, `${tag}-b`, `${tag}-a`] };
  }

  it('when pages of 2 are followed with after, then with before, then both ways give the history in order', async () => {
    const owner = await newApiAccount(app);
    const { email, order } = await longHistory(owner);
    const page = (query: string) => owner.api.get(`/suppressions/${email}/events?limit=2${query}`);

    const forward: string[][] = [];
    let response = await page('');
    forward.push(eventIdsOf(response.body));
    while (response.body.has_more) {
      response = await page(`&after=${encodeURIComponent(response.body.data.at(-1).event_id)}`);
      forward.push(eventIdsOf(response.body));
    }
    expect(forward).toEqual([order.slice(0, 2), order.slice(2, 4), order.slice(4, 6)]);

    const backward: string[][] = [];
    let first = order[4]!;
    do {
      response = await page(`&before=${encodeURIComponent(first)}`);
      backward.unshift(eventIdsOf(response.body));
      first = response.body.data[0]?.event_id;
    } while (response.body.has_more);
    expect(backward).toEqual([order.slice(0, 2), order.slice(2, 4)]);
  });

  it('when a page starts inside one batch, then the cursor splits its records by event id', async () => {
    const owner = await newApiAccount(app);
    const { email, order } = await longHistory(owner);

    const { body } = await owner.api.get(`/suppressions/${email}/events?limit=2&after=${order[2]}`);
    const { body: back } = await owner.api.get(`/suppressions/${email}/events?limit=1&before=${order[4]}`);

    expect(body).toMatchObject({ has_more: true });
    expect(eventIdsOf(body)).toEqual([order[3], order[4]]);
    expect(back).toMatchObject({ has_more: true });
    expect(eventIdsOf(back)).toEqual([order[3]]);
  });
});

describe('what is not there', () => {
  it('when the address or id is unknown, then it answers 404', async () => {
    const owner = await newApiAccount(app);
    for (const target of [uniqueEmail(), randomUUID()]) {
      expectError(await owner.api.get(`/suppressions/${target}/events`), 404, 'not_found');
    }
  });

  it('when another account’s address and entry are asked for, then they are unknown; and its records never show', async () => {
    const owner = await newApiAccount(app);
    const stranger = await newApiAccount(app);
    const shared = uniqueEmail();
    await record(bounceEvent(stranger.accountId, shared));
    const { body: theirs } = await stranger.api.get(`/suppressions/${shared}`);

    expectError(await owner.api.get(`/suppressions/${shared}/events`), 404, 'not_found');
    expectError(await owner.api.get(`/suppressions/${theirs.id}/events`), 404, 'not_found');

    const mine = bounceEvent(owner.accountId, shared);
    await record(mine);
    const { body } = await owner.api.get(`/suppressions/${shared}/events`);
    expect(eventIdsOf(body)).toEqual([mine.event_id]);
  });

  it('when a cursor is not an event of this address, then it answers 422 naming the parameter', async () => {
    const owner = await newApiAccount(app);
    const { email } = await bouncedThenRemoved(owner);
    const other = bounceEvent(owner.accountId, uniqueEmail());
    await record(other);

    for (const parameter of ['after', 'before']) {
      for (const cursor of ['no-such-event', other.event_id]) {
        const response = await owner.api.get(`/suppressions/${email}/events?${parameter}=${cursor}`);
        expectError(response, 422, 'validation_error');
        expect(response.body.message).toBe(`\`${parameter}\` is not an event of this address's history.`);
      }
    }
  });
});

describe('bad requests', () => {
  it('when the query is wrong, then it answers 422 naming the field', async () => {
    const owner = await newApiAccount(app);
    const { email } = await bouncedThenRemoved(owner);
    const cases: Array<[string, string]> = [
      ['limit=0', '`limit` must be a whole number from 1 to 100.'],
      ['limit=101', '`limit` must be a whole number from 1 to 100.'],
      ['after=a&before=b', '`after` and `before` cannot be used together.'],
      ['after=', '`after` must be an event id (1 to 255 characters).'],
      ['before=%00', '`before` must not contain NUL characters or unpaired UTF-16 surrogates.'],
    ];
    for (const [query, message] of cases) {
      const response = await owner.api.get(`/suppressions/${email}/events?${query}`);
      expectError(response, 422, 'validation_error');
      expect(response.body.message, query).toBe(message);
    }
  });

  it('when the path is neither an id nor an address, then it answers 422', async () => {
    const owner = await newApiAccount(app);
    const response = await owner.api.get('/suppressions/not-an-address/events');
    expectError(response, 422, 'validation_error');
    expect(response.body.message).toBe('`suppression` must be a suppression id or an email address.');
  });

  it('when another method is used, then it answers 405 allowing GET', async () => {
    const owner = await newApiAccount(app);
    const response = await owner.api.post(`/suppressions/${uniqueEmail()}/events`, {});
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('when a sending_access key asks, then it answers 401 restricted_api_key, and the check still takes that key', async () => {
    const owner = await newApiAccount(app);
    const { email } = await bouncedThenRemoved(owner);
    const sending = apiClient(app.server.url, (await newKey(app.database.db, owner.account, 'sending_access')).token);

    expectError(await sending.get(`/suppressions/${email}/events`), 401, 'restricted_api_key');
    const check = await sending.post('/suppressions/check', { emails: [email] });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ object: 'suppression_check', checked: 1, suppressed: [] });
  });
});
