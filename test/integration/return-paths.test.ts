import { randomBytes } from 'node:crypto';
import { base32nopad } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { makeReturnPath } from '../../src/client/return-path.js';
import { returnPathToken } from '../../src/mail/return-paths/address.js';
import { readReturnPathToken, writeReturnPathToken } from '../../src/mail/return-paths/token.js';
import { messageReferenceOf, verifyReturnPath } from '../../src/mail/return-paths/verify.js';
import { newKey } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient } from '../support/api-client.js';
import { uniqueEmail } from '../support/emails.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const DOMAINS = ['bounces.example.com', 'bounces.example.net'];
const app = useTestApp({ env: { BOUNCE_DOMAINS: ' bounces.example.com , Bounces.Example.net ' } });
const unconfigured = useTestApp();

const DAY_MS = 24 * 60 * 60 * 1000;
const PLACE = { bounceDomains: DOMAINS, localPart: 'bounces' };
const at = (ms: number) => ({ ...PLACE, now: new Date(ms) });

/** A sending key's client for the account, as a mail system would hold it. */
async function sendingClient(owner: { account: Parameters<typeof newKey>[1] }): Promise<ApiClient> {
  const key = await newKey(app.database.db, owner.account, 'sending_access');
  return apiClient(app.server.url, key.token);
}

/** A secret id no secret of the file's database has. */
async function unusedSecretId(): Promise<Buffer> {
  for (;;) {
    const id = randomBytes(4);
    const { rows } = await app.database.db.query({
      text: 'SELECT 1 FROM return_path_secrets WHERE id = $1',
      values: [id],
    });
    if (rows.length === 0) return id;
  }
}

async function returnPathOf(api: ApiClient, recipient: string, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await api.post('/return-paths', { recipients: [recipient], ...extra });
  expect(answer.status).toBe(200);
  return answer.body.data[0].return_path as string;
}

describe('asking for return paths', () => {
  it('when a sending key asks for several recipients, then each gets a signed return path in the same order, which verifies as the account’s', async () => {
    const owner = await newApiAccount(app);
    const api = await sendingClient(owner);
    const first = uniqueEmail();
    const second = uniqueEmail();

    const answer = await api.post('/return-paths', {
      recipients: [` ${first.toUpperCase()}`, second, first],
      scope: 'newsletter',
      message_id: '<0f1e2d3c@mail.example.com>',
    });

    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe('list');
    expect(answer.body.data.map((item: { email: string }) => item.email)).toEqual([first, second, first]);
    for (const { email, return_path: path } of answer.body.data as { email: string; return_path: string }[]) {
      expect(path).toMatch(/^bounces\+[a-z2-7]+@bounces\.example\.com$/);
      expect(await verifyReturnPath(app.database.db, path, at(Date.now()))).toEqual({
        ok: true,
        accountId: owner.accountId,
        recipient: email,
        scope: 'newsletter',
        messageRef: messageReferenceOf('0f1e2d3c@mail.example.com'),
        secretId: expect.stringMatching(/^[0-9a-f]{8}$/),
      });
    }
  });

  it('when a domain is named, then the return paths are at it; one that is not a bounce domain answers 422 naming it', async () => {
    const owner = await newApiAccount(app);
    const path = await returnPathOf(owner.api, uniqueEmail(), { domain: 'BOUNCES.example.net' });
    expect(path.endsWith('@bounces.example.net')).toBe(true);
    expect((await verifyReturnPath(app.database.db, path, at(Date.now()))).ok).toBe(true);

    const refused = await owner.api.post('/return-paths', { recipients: [uniqueEmail()], domain: 'example.org' });
    expectError(refused, 422, 'validation_error');
    expect(refused.body.message).toBe(
      '`domain` must be one of the service’s bounce domains: bounces.example.com, bounces.example.net.',
    );
  });

  it('when no scope and no Message-ID are given, then the return path says so and still verifies', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const verified = await verifyReturnPath(
      app.database.db,
      await returnPathOf(owner.api, recipient, { scope: null }),
      at(Date.now()),
    );
    expect(verified).toMatchObject({ ok: true, recipient, scope: null, messageRef: null });
  });

  it('when 1,001 recipients are asked for, or none, then it answers 422 and makes nothing', async () => {
    const owner = await newApiAccount(app);
    const many = Array.from({ length: 1001 }, (_, i) => `r${i}@example.com`);

    const tooMany = await owner.api.post('/return-paths', { recipients: many });
    expectError(tooMany, 422, 'validation_error');
    expect(tooMany.body.message).toBe('`recipients` must have at most 1000 items.');
    expectError(await owner.api.post('/return-paths', { recipients: [] }), 422, 'validation_error');
    expect((await owner.api.post('/return-paths', { recipients: many.slice(0, 1000) })).body.data).toHaveLength(1000);
  });

  it('when one recipient is not an address, then it answers 422 naming its index', async () => {
    const owner = await newApiAccount(app);
    const answer = await owner.api.post('/return-paths', { recipients: [uniqueEmail(), 'not-an-address'] });
    expectError(answer, 422, 'validation_error');
    expect(answer.body.message).toBe('`recipients[1]` is not a valid email address.');
  });

  it('when the scope or the Message-ID is not right, then it answers 422 naming the field', async () => {
    const owner = await newApiAccount(app);
    const badScope = await owner.api.post('/return-paths', { recipients: [uniqueEmail()], scope: 'News' });
    const badId = await owner.api.post('/return-paths', { recipients: [uniqueEmail()], message_id: 'a b' });
    expectError(badScope, 422, 'validation_error');
    expect(badScope.body.message).toMatch(/^`scope` must be a scope/);
    expectError(badId, 422, 'validation_error');
    expect(badId.body.message).toMatch(/^`message_id` must be a Message-ID/);
  });

  it('when the service has no BOUNCE_DOMAINS, then asking for return paths or their secret answers 409 saying what to set', async () => {
    const owner = await newApiAccount(unconfigured);
    for (const answer of [
      await owner.api.post('/return-paths', { recipients: [uniqueEmail()] }),
      await owner.api.get('/return-paths/secret'),
    ]) {
      expectError(answer, 409, 'return_paths_not_configured');
      expect(answer.body.message).toContain('set BOUNCE_DOMAINS');
    }
  });

  it('when a sending key asks for the secret or rotates it, then it is refused: only full-access keys hold the secret', async () => {
    const api = await sendingClient(await newApiAccount(app));
    expectError(await api.get('/return-paths/secret'), 401, 'restricted_api_key');
    expectError(await api.post('/return-paths/secret/rotate', undefined), 401, 'restricted_api_key');
  });
});

describe('making return paths locally', () => {
  it('when the client makes return paths from the account’s secret, then they are the endpoint’s, byte for byte', async () => {
    const owner = await newApiAccount(app);
    const recipients = [uniqueEmail(), uniqueEmail()];
    const asked = await owner.api.post('/return-paths', {
      recipients,
      scope: 'receipts',
      message_id: 'a1b2c3@mail.example.com',
      domain: 'bounces.example.net',
    });
    const secret = await owner.api.get('/return-paths/secret');

    expect(secret.status).toBe(200);
    expect(secret.body).toMatchObject({
      object: 'return_path_secret',
      domains: DOMAINS,
      local_part: 'bounces',
      previous_valid_until: null,
    });
    const local = recipients.map((recipient) =>
      makeReturnPath(secret.body, {
        recipient,
        scope: 'receipts',
        messageId: '<a1b2c3@mail.example.com>',
        localPart: secret.body.local_part,
        domain: secret.body.domains[1],
      }),
    );
    expect(local).toEqual(asked.body.data.map((item: { return_path: string }) => item.return_path));
  });

  it('when several first requests of an account come at once, then they all get the one secret', async () => {
    const owner = await newApiAccount(app);
    const answers = await Promise.all(Array.from({ length: 6 }, () => owner.api.get('/return-paths/secret')));
    expect(new Set(answers.map((answer) => `${answer.status} ${answer.body.id}`)).size).toBe(1);
    expect(answers[0]?.status).toBe(200);
  });
});

describe('rotating the secret', () => {
  it('when the secret is rotated, then return paths made before verify through the overlap and not after it, and new ones verify', async () => {
    const owner = await newApiAccount(app);
    const recipient = uniqueEmail();
    const before = await returnPathOf(owner.api, recipient);
    const old = await owner.api.get('/return-paths/secret');

    const rotated = await owner.api.post('/return-paths/secret/rotate', undefined);
    const rotatedAt = Date.now();

    expect(rotated.status).toBe(200);
    expect(rotated.body.id).not.toBe(old.body.id);
    expect(rotated.body.secret).not.toBe(old.body.secret);
    const overlapEnds = Date.parse(rotated.body.previous_valid_until as string);
    // Seven days (the default) from the rotation, as the database's clock measured it.
    expect(Math.abs(overlapEnds - (rotatedAt + 7 * DAY_MS))).toBeLessThan(60_000);
    const after = await returnPathOf(owner.api, recipient);
    expect(returnPathToken(after, PLACE)?.slice(0, 8)).not.toBe(returnPathToken(before, PLACE)?.slice(0, 8));

    expect(await verifyReturnPath(app.database.db, before, at(overlapEnds - 1))).toMatchObject({
      ok: true,
      recipient,
      secretId: old.body.id,
    });
    expect(await verifyReturnPath(app.database.db, before, at(overlapEnds))).toEqual({
      ok: false,
      problem: 'retired_secret',
    });
    expect(await verifyReturnPath(app.database.db, after, at(overlapEnds + 365 * DAY_MS))).toMatchObject({
      ok: true,
      secretId: rotated.body.id,
    });
    expect((await owner.api.get('/return-paths/secret')).body).toMatchObject({
      id: rotated.body.id,
      previous_valid_until: rotated.body.previous_valid_until,
    });
  });

  it('when the secret is rotated twice, then each retired secret keeps its own overlap', async () => {
    const owner = await newApiAccount(app);
    const first = await returnPathOf(owner.api, uniqueEmail());
    const once = await owner.api.post('/return-paths/secret/rotate', undefined);
    const second = await returnPathOf(owner.api, uniqueEmail());
    const twice = await owner.api.post('/return-paths/secret/rotate', undefined);
    const third = await returnPathOf(owner.api, uniqueEmail());
    const now = Date.now();

    for (const path of [first, second, third]) {
      expect((await verifyReturnPath(app.database.db, path, at(now))).ok).toBe(true);
    }
    expect(Date.parse(twice.body.previous_valid_until)).toBeGreaterThanOrEqual(
      Date.parse(once.body.previous_valid_until),
    );
  });
});

describe('what verification refuses', () => {
  it('when a token of account A is made to name account B’s secret, or B’s key signs a token naming A’s, then neither verifies as anyone', async () => {
    const a = await newApiAccount(app);
    const b = await newApiAccount(app);
    const recipient = uniqueEmail();
    const ofA = await returnPathOf(a.api, recipient);
    const secretOfA = (await a.api.get('/return-paths/secret')).body;
    const secretOfB = (await b.api.get('/return-paths/secret')).body;
    const read = readReturnPathToken(returnPathToken(ofA, PLACE) as string);
    if (read === null) throw new Error('the endpoint’s token does not read');

    // A's token with B's secret id in place of A's: B's secret did not sign it.
    const renamed = Buffer.concat([read.signed, read.tag]);
    Buffer.from(secretOfB.id, 'hex').copy(renamed, 1);
    const movedToB = `bounces+${base32nopad.encode(renamed).toLowerCase()}@bounces.example.com`;
    // Signed with A's secret (which A may hold) but naming B's secret: A cannot speak for B.
    const forgedByA = `bounces+${writeReturnPathToken(Buffer.from(secretOfA.secret, 'base64url'), {
      ...read.fields,
      secretId: Buffer.from(secretOfB.id, 'hex'),
    })}@bounces.example.com`;

    expect(await verifyReturnPath(app.database.db, ofA, at(Date.now()))).toMatchObject({
      ok: true,
      accountId: a.accountId,
    });
    for (const path of [movedToB, forgedByA]) {
      expect(await verifyReturnPath(app.database.db, path, at(Date.now()))).toEqual({
        ok: false,
        problem: 'bad_signature',
      });
    }
  });

  it('when an address is not a return path, names no secret, is altered or is not a token, then each is told apart', async () => {
    const owner = await newApiAccount(app);
    const path = await returnPathOf(owner.api, uniqueEmail());
    const token = returnPathToken(path, PLACE) as string;
    const bytes = Buffer.from(base32nopad.decode(token.toUpperCase()));
    const unknown = Buffer.from(bytes);
    unknown.set(await unusedSecretId(), 1);
    const altered = Buffer.from(bytes);
    altered[altered.length - 12] = (altered[altered.length - 12] as number) ^ 1;
    const verify = async (address: string) => verifyReturnPath(app.database.db, address, at(Date.now()));
    const withToken = (text: string) => `bounces+${text}@bounces.example.com`;

    expect(await verify(path.toUpperCase())).toMatchObject({ ok: true });
    expect(await verify(`<${path}>`)).toMatchObject({ ok: true });
    expect(await verify(path.replace('@bounces.example.com', '@example.org'))).toEqual({
      ok: false,
      problem: 'not_a_return_path',
    });
    expect(await verify('bounces@bounces.example.com')).toEqual({ ok: false, problem: 'not_a_return_path' });
    expect(await verify(withToken('zzzz'))).toEqual({ ok: false, problem: 'malformed' });
    expect(await verify(withToken(base32nopad.encode(altered).toLowerCase()))).toEqual({
      ok: false,
      problem: 'bad_signature',
    });
    expect(await verify(withToken(base32nopad.encode(unknown).toLowerCase()))).toEqual({
      ok: false,
      problem: 'unknown_secret',
    });
  });
});
