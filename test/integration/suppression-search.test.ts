import { beforeAll, describe, expect, it } from 'vitest';
import { addSuppressions } from '../../src/suppressions/suppression-repository.js';
import { newId } from '../../src/domain/ids.js';
import type { Origin } from '../../src/domain/origins.js';
import { expectError, type ApiClient } from '../support/api-client.js';
import { newApiAccount, useTestApp, type ApiAccount } from '../support/test-app.js';

const app = useTestApp();

interface Seed {
  email: string;
  origin: Origin;
}

/** Oldest first: the i-th entry is created i minutes after BASE. */
const SEEDS: Seed[] = [
  { email: 'jane.doe@example.com', origin: 'manual' },
  { email: 'jane.roe@example.com', origin: 'bounce' },
  { email: 'janet@example.org', origin: 'complaint' },
  { email: 'john@example.com', origin: 'bounce' },
  { email: 'jane@mail.example.com', origin: 'manual' },
  { email: 'ja%ne@example.com', origin: 'manual' },
  { email: 'jaxne@example.com', origin: 'bounce' },
  { email: 'ja_ne@example.com', origin: 'bounce' },
  { email: 'jaune@example.com', origin: 'complaint' },
  { email: 'first+tag@example.com', origin: 'bounce' },
  { email: 'bob@example.com', origin: 'bounce' },
  { email: 'carol@example.com', origin: 'bounce' },
  { email: 'dave@example.net', origin: 'bounce' },
  { email: 'erin@example.com', origin: 'manual' },
];
const BASE = Date.parse('2026-03-14T09:00:00.000Z');
const minute = (n: number) => new Date(BASE + n * 60_000).toISOString();

interface Entry extends Seed {
  id: string;
  created_at: string;
}

/** Entries with distinct, increasing ids and a creation time each of its own, a minute apart. */
async function seed(accountId: string, seeds: readonly Seed[]): Promise<Entry[]> {
  const entries = seeds.map((entry, index) => ({ ...entry, id: newId(), created_at: minute(index) }));
  await addSuppressions(
    app.database.db,
    accountId,
    entries.map(({ id, email, origin }) => ({ id, email, origin, sourceId: origin === 'manual' ? null : newId() })),
  );
  await app.database.db.query({
    text: `UPDATE suppressions s SET created_at = t.created_at
           FROM unnest($1::uuid[], $2::timestamptz[]) AS t(id, created_at)
           WHERE s.account_id = $3 AND s.id = t.id`,
    values: [entries.map((entry) => entry.id), entries.map((entry) => entry.created_at), accountId],
  });
  return entries;
}

/** The entries a search should find, newest first. */
const expected = (entries: readonly Entry[], keep: (entry: Entry, index: number) => boolean) =>
  entries
    .filter(keep)
    .reverse()
    .map((entry) => entry.email);

async function emailsOf(api: ApiClient, query: string): Promise<string[]> {
  const response = await api.get(`/suppressions?${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.map((entry: { email: string }) => entry.email);
}

let owner: ApiAccount;
let entries: Entry[];

beforeAll(async () => {
  owner = await newApiAccount(app);
  entries = await seed(owner.accountId, SEEDS);
  // Another account's addresses, which no search of the owner's may find.
  const other = await newApiAccount(app);
  await seed(other.accountId, SEEDS);
});

describe('the email filter', () => {
  it('when it is an address, then only that address is found, normalised like the rest of the API', async () => {
    expect(await emailsOf(owner.api, `email=${encodeURIComponent('  JANE.Doe@Example.com ')}`)).toEqual([
      'jane.doe@example.com',
    ]);
  });

  it('when the address is not on the list, then the page is empty', async () => {
    const response = await owner.api.get('/suppressions?email=nobody@example.com');
    expect(response.body).toEqual({ object: 'list', has_more: false, data: [] });
  });

  it('when it ends in *, then it finds every address that starts with what comes before', async () => {
    expect(await emailsOf(owner.api, 'email=jane*')).toEqual(expected(entries, (e) => e.email.startsWith('jane')));
    expect(await emailsOf(owner.api, 'email=jane.doe@exa*')).toEqual(['jane.doe@example.com']);
    expect(await emailsOf(owner.api, `email=${encodeURIComponent(' JANE@MAIL* ')}`)).toEqual(['jane@mail.example.com']);
  });

  it('when the prefix holds % or _, then they match only themselves', async () => {
    expect(await emailsOf(owner.api, `email=${encodeURIComponent('ja%ne*')}`)).toEqual(['ja%ne@example.com']);
    expect(await emailsOf(owner.api, 'email=ja_n*')).toEqual(['ja_ne@example.com']);
    expect(await emailsOf(owner.api, 'email=ja_*')).toEqual(['ja_ne@example.com']);
  });

  it('when the address holds a +, then it is found with the + percent-encoded', async () => {
    expect(await emailsOf(owner.api, 'email=first%2Btag@example.com')).toEqual(['first+tag@example.com']);
    expect(await emailsOf(owner.api, 'email=first%2B*')).toEqual(['first+tag@example.com']);
  });
});

describe('the domain filter', () => {
  it('when a domain is given, then only its addresses are found, not its subdomains', async () => {
    expect(await emailsOf(owner.api, 'domain=example.com')).toEqual(
      expected(entries, (e) => e.email.endsWith('@example.com')),
    );
    expect(await emailsOf(owner.api, 'domain=mail.example.com')).toEqual(['jane@mail.example.com']);
  });

  it('when it is in capitals, then it is lower-cased', async () => {
    expect(await emailsOf(owner.api, 'domain=%20Example.NET%20')).toEqual(['dave@example.net']);
  });
});

describe('the creation-time filters', () => {
  it('when created_after and created_before are given, then both bounds are exclusive', async () => {
    const found = await emailsOf(owner.api, `created_after=${minute(3)}&created_before=${minute(7)}`);
    expect(found).toEqual(expected(entries, (_, index) => index > 3 && index < 7));
  });

  it('when a bound has an offset, then it is the same moment as in UTC', async () => {
    const offset = encodeURIComponent('2026-03-14T10:05:00+01:00'); // minute(5)
    expect(await emailsOf(owner.api, `created_after=${offset}`)).toEqual(expected(entries, (_, index) => index > 5));
    expect(await emailsOf(owner.api, `created_before=${offset}`)).toEqual(expected(entries, (_, index) => index < 5));
  });

  it('when the bounds lie at the ends of the calendar, then everything lies between them', async () => {
    const query = `created_after=0000-01-01T00:00:00Z&created_before=${encodeURIComponent('9999-12-31T23:59:59.999+23:59')}`;
    expect(await emailsOf(owner.api, query)).toEqual(expected(entries, () => true));
  });

  it('when an entry was created within the millisecond shown, then its shown time still excludes it', async () => {
    const { api, accountId } = await newApiAccount(app);
    const [entry] = await seed(accountId, [{ email: 'micro@example.com', origin: 'manual' }]);
    await app.database.db.query({
      text: `UPDATE suppressions SET created_at = '2026-03-14T09:00:00.000500Z' WHERE account_id = $1`,
      values: [accountId],
    });
    const shown = (await api.get(`/suppressions/${entry!.id}`)).body.created_at;
    expect(shown).toBe('2026-03-14T09:00:00.000Z');
    expect(await emailsOf(api, `created_after=${shown}`)).toEqual([]);
    expect(await emailsOf(api, `created_before=${shown}`)).toEqual([]);
    expect(await emailsOf(api, 'created_after=2026-03-14T08:59:59.999Z')).toEqual(['micro@example.com']);
    expect(await emailsOf(api, 'created_before=2026-03-14T09:00:00.001Z')).toEqual(['micro@example.com']);
  });
});

describe('filters together', () => {
  it('when each filter is combined with origin, then both apply', async () => {
    expect(await emailsOf(owner.api, 'origin=bounce&email=ja*')).toEqual(
      expected(entries, (e) => e.origin === 'bounce' && e.email.startsWith('ja')),
    );
    expect(await emailsOf(owner.api, 'origin=manual&email=jane.doe@example.com')).toEqual(['jane.doe@example.com']);
    expect(await emailsOf(owner.api, 'origin=bounce&email=jane.doe@example.com')).toEqual([]);
    expect(await emailsOf(owner.api, 'origin=complaint&domain=example.com')).toEqual(['jaune@example.com']);
    expect(await emailsOf(owner.api, `origin=manual&created_after=${minute(4)}`)).toEqual(
      expected(entries, (e, index) => e.origin === 'manual' && index > 4),
    );
  });

  it('when every filter is given at once, then an entry must pass them all', async () => {
    const query = `origin=bounce&email=ja*&domain=example.com&created_after=${minute(1)}&created_before=${minute(8)}`;
    expect(await emailsOf(owner.api, query)).toEqual(['ja_ne@example.com', 'jaxne@example.com']);
  });

  it('when unknown parameters come along, then they are ignored', async () => {
    expect(await emailsOf(owner.api, 'domain=example.net&sort=asc&q=x')).toEqual(['dave@example.net']);
  });
});

describe('paging through a filtered list', () => {
  /** Every page of `query`, following `after` from the first page, then `before` back from the last. */
  async function walk(query: string, limit: number): Promise<{ forward: string[][]; backward: string[][] }> {
    const forward: string[][] = [];
    const ids: string[][] = [];
    let cursor = '';
    for (;;) {
      const { body } = await owner.api.get(`/suppressions?${query}&limit=${limit}${cursor}`);
      forward.push(body.data.map((entry: Entry) => entry.email));
      ids.push(body.data.map((entry: Entry) => entry.id));
      if (!body.has_more) break;
      cursor = `&after=${body.data.at(-1).id}`;
    }
    const backward: string[][] = [forward.at(-1)!];
    let first = ids.at(-1)![0];
    for (;;) {
      const { body } = await owner.api.get(`/suppressions?${query}&limit=${limit}&before=${first}`);
      if (body.data.length > 0) backward.unshift(body.data.map((entry: Entry) => entry.email));
      if (!body.has_more) break;
      first = body.data[0].id;
    }
    return { forward, backward };
  }

  const cases: Array<[string, string, (entry: Entry, index: number) => boolean]> = [
    ['a prefix', 'email=ja*', (e) => e.email.startsWith('ja')],
    [
      'a domain and an origin',
      'domain=example.com&origin=bounce',
      (e) => e.email.endsWith('@example.com') && e.origin === 'bounce',
    ],
    ['a time window', `created_after=${minute(0)}&created_before=${minute(13)}`, (_, i) => i > 0 && i < 13],
  ];

  for (const [name, query, keep] of cases) {
    it(`when pages of 2 walk ${name} both ways, then they hold the filtered entries in order, has_more true until the end`, async () => {
      const all = expected(entries, keep);
      expect(all.length).toBeGreaterThan(4);
      const { forward, backward } = await walk(query, 2);
      expect(forward.flat()).toEqual(all);
      expect(forward.slice(0, -1).every((page) => page.length === 2)).toBe(true);
      expect(backward.flat()).toEqual(all);
    });
  }

  it('when the cursor is the newest match, then before gives an empty page with has_more false', async () => {
    const { body: first } = await owner.api.get('/suppressions?domain=example.org');
    const { body } = await owner.api.get(`/suppressions?domain=example.org&before=${first.data[0].id}`);
    expect(body).toEqual({ object: 'list', has_more: false, data: [] });
  });
});

describe('bad filter values', () => {
  const cases: Array<[string, string]> = [
    ['email=*', '`email` needs at least one character before `*`.'],
    ['email=ja*ne', '`email` may contain `*` only as its last character.'],
    ['email=jane**', '`email` may contain `*` only as its last character.'],
    ['email=not-an-address', '`email` is not a valid email address (a prefix search ends in `*`).'],
    ['email=', '`email` is empty (a prefix search ends in `*`).'],
    [`email=${encodeURIComponent('jäne*')}`, '`email` has a character no email address contains.'],
    [`email=${encodeURIComponent('ja ne*')}`, '`email` has a character no email address contains.'],
    ['email=a*&email=b*', '`email` must be a string.'],
    ['domain=example', '`domain` must be a domain name, such as `example.com`.'],
    ['domain=@example.com', '`domain` must be a domain name, such as `example.com`.'],
    ['domain=ex_ample.com', '`domain` must be a domain name, such as `example.com`.'],
    [
      'created_after=yesterday',
      '`created_after` must be an ISO 8601 timestamp with a time zone, such as `2026-03-14T09:26:53Z`.',
    ],
    [
      'created_before=2026-03-14T09:26:53',
      '`created_before` must be an ISO 8601 timestamp with a time zone, such as `2026-03-14T09:26:53Z`.',
    ],
    [
      'created_before=2026-02-30T09:26:53Z',
      '`created_before` must be an ISO 8601 timestamp with a time zone, such as `2026-03-14T09:26:53Z`.',
    ],
    [
      `created_after=${minute(2)}&created_before=${minute(2)}`,
      '`created_after` must be earlier than `created_before`.',
    ],
    [
      `created_after=${minute(3)}&created_before=${minute(2)}`,
      '`created_after` must be earlier than `created_before`.',
    ],
  ];

  for (const [query, message] of cases) {
    it(`when the query is ${query}, then it answers 422: ${message}`, async () => {
      const response = await owner.api.get(`/suppressions?${query}`);
      expectError(response, 422, 'validation_error');
      expect(response.body.message).toBe(message);
    });
  }
});
