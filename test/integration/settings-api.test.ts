import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/server.js';
import { newAccount, newKey } from '../support/accounts.js';
import { apiClient, expectError, type ApiClient, type ApiResponse } from '../support/api-client.js';
import { newApiAccount, useTestApp } from '../support/test-app.js';

const app = useTestApp({ redis: 'live', rateLimitPerSecond: 10_000 });
/** The same app, allowed one request per second per account. */
let slow: RunningServer;

beforeAll(async () => {
  slow = await app.startApp({ redis: 'live', rateLimitPerSecond: 1 });
});

const PATH = '/settings/suppressions';

const DEFAULTS = {
  object: 'suppression_settings',
  bounce_actions: {
    invalid_address: 'suppress',
    mailbox_unavailable: 'count',
    sender_blocked: 'record',
    delivery_failure: 'record',
    auto_reply: 'record',
    unknown: 'count',
  },
  soft_bounce_threshold: 3,
  soft_bounce_window_days: 30,
  expire_after_days: { bounce: null, complaint: null, manual: null },
  complaint_scope: 'message',
};

const patch = (api: ApiClient, body: unknown, rawBody?: string): Promise<ApiResponse> =>
  rawBody === undefined ? api.request('PATCH', PATH, { body }) : api.request('PATCH', PATH, { rawBody });

function expectInvalid(response: ApiResponse, message: string): void {
  expectError(response, 422, 'validation_error');
  expect(response.body.message).toBe(message);
}

/** A client of a new account whose settings are those given (the defaults elsewhere). */
async function accountWith(body: Record<string, unknown>): Promise<ApiClient> {
  const { api } = await newApiAccount(app);
  expect((await patch(api, body)).status).toBe(200);
  return api;
}

describe('GET /settings/suppressions', () => {
  it('when an account never changed its settings, then it gets the defaults: a dead address suppressed at once, the third counted bounce within 30 days', async () => {
    const { api } = await newApiAccount(app);

    const response = await api.get(PATH);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toStrictEqual(DEFAULTS);
  });

  it('when an account’s first change is of something else, then its soft-bounce threshold and window stay the defaults', async () => {
    const { api } = await newApiAccount(app);

    const changed = await patch(api, { expire_after_days: { bounce: 90 } });

    expect(changed.body).toStrictEqual({
      ...DEFAULTS,
      expire_after_days: { bounce: 90, complaint: null, manual: null },
    });
    expect((await api.get(PATH)).body).toStrictEqual(changed.body);
  });

  it('when settings were changed, then GET answers them as the PATCH did', async () => {
    const { api } = await newApiAccount(app);
    const changed = await patch(api, { soft_bounce_threshold: 4, expire_after_days: { complaint: 365 } });

    const read = await api.get(PATH);

    expect(read.status).toBe(200);
    expect(read.body).toStrictEqual(changed.body);
    expect(read.body).toStrictEqual({
      ...DEFAULTS,
      soft_bounce_threshold: 4,
      expire_after_days: { bounce: null, complaint: 365, manual: null },
    });
  });
});

describe('PATCH /settings/suppressions', () => {
  it('when every setting is given, then it answers 200 with the full settings as they now are', async () => {
    const { api } = await newApiAccount(app);
    const body = {
      soft_bounce_threshold: 3,
      soft_bounce_window_days: 14,
      expire_after_days: { bounce: 30, complaint: 3650, manual: 1 },
      complaint_scope: 'global',
    };

    const response = await patch(api, body);

    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ ...DEFAULTS, ...body });
  });

  it('when one setting is given, then the others keep their values', async () => {
    const api = await accountWith({
      soft_bounce_threshold: 5,
      soft_bounce_window_days: 30,
      expire_after_days: { bounce: 60, complaint: 90, manual: 120 },
    });

    const window = await patch(api, { soft_bounce_window_days: 2 });
    const bounce = await patch(api, { expire_after_days: { bounce: 10 } });

    expect(window.body).toStrictEqual({
      object: 'suppression_settings',
      bounce_actions: DEFAULTS.bounce_actions,
      soft_bounce_threshold: 5,
      soft_bounce_window_days: 2,
      expire_after_days: { bounce: 60, complaint: 90, manual: 120 },
      complaint_scope: 'message',
    });
    expect(bounce.body).toStrictEqual({
      object: 'suppression_settings',
      bounce_actions: DEFAULTS.bounce_actions,
      soft_bounce_threshold: 5,
      soft_bounce_window_days: 2,
      expire_after_days: { bounce: 10, complaint: 90, manual: 120 },
      complaint_scope: 'message',
    });
  });

  it('when a threshold or an expiry is set to null, then it is off again and nothing else changes', async () => {
    const api = await accountWith({ soft_bounce_threshold: 3, expire_after_days: { bounce: 30, manual: 7 } });

    const response = await patch(api, { soft_bounce_threshold: null, expire_after_days: { bounce: null } });

    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({
      ...DEFAULTS,
      soft_bounce_threshold: null,
      expire_after_days: { bounce: null, complaint: null, manual: 7 },
    });
    expect((await api.get(PATH)).body).toStrictEqual(response.body);
  });

  it('when each bound itself is given, then it is taken', async () => {
    const { api } = await newApiAccount(app);
    const lowest = {
      soft_bounce_threshold: 2,
      soft_bounce_window_days: 1,
      expire_after_days: { bounce: 1, complaint: 1, manual: 1 },
    };
    const highest = {
      soft_bounce_threshold: 100,
      soft_bounce_window_days: 365,
      expire_after_days: { bounce: 3650, complaint: 3650, manual: 3650 },
    };

    expect((await patch(api, lowest)).body).toStrictEqual({ ...DEFAULTS, ...lowest });
    expect((await patch(api, highest)).body).toStrictEqual({ ...DEFAULTS, ...highest });
  });

  it('when another account changes its settings, then this account keeps its own', async () => {
    const mine = await accountWith({ soft_bounce_threshold: 8, expire_after_days: { manual: 40 } });
    const { api: theirs } = await newApiAccount(app);
    const before = (await mine.get(PATH)).body;

    await patch(theirs, { soft_bounce_threshold: 2, soft_bounce_window_days: 3, expire_after_days: { manual: 1 } });

    expect((await mine.get(PATH)).body).toStrictEqual(before);
    expect((await theirs.get(PATH)).body.soft_bounce_threshold).toBe(2);
  });
});

const THRESHOLD = '`soft_bounce_threshold` must be null or a whole number from 2 to 100.';
const WINDOW = '`soft_bounce_window_days` must be a whole number from 1 to 365.';
const expiry = (origin: string) => `\`expire_after_days.${origin}\` must be null or a whole number from 1 to 3650.`;

/** For each setting: values below, above, between whole numbers and of the wrong type, and the message. */
const OUT_OF_BOUNDS: Array<[string, (value: unknown) => Record<string, unknown>, unknown[], string]> = [
  ['soft_bounce_threshold', (value) => ({ soft_bounce_threshold: value }), [1, 101, 2.5, '5', true], THRESHOLD],
  ['soft_bounce_window_days', (value) => ({ soft_bounce_window_days: value }), [0, 366, 7.5, '7', null, -1], WINDOW],
  ...['bounce', 'complaint', 'manual'].map(
    (origin): [string, (value: unknown) => Record<string, unknown>, unknown[], string] => [
      `expire_after_days.${origin}`,
      (value) => ({ expire_after_days: { [origin]: value } }),
      [0, 3651, 1.5, '30', [30]],
      expiry(origin),
    ],
  ),
];

describe('PATCH /settings/suppressions: refused values', () => {
  it.each(OUT_OF_BOUNDS)(
    'when %s is out of bounds, fractional or not a number, then each is refused with 422 naming the field, and nothing changes',
    async (_field, bodyOf, values, message) => {
      const api = await accountWith({ soft_bounce_threshold: 6, expire_after_days: { bounce: 9 } });
      const before = (await api.get(PATH)).body;

      for (const value of values) expectInvalid(await patch(api, bodyOf(value)), message);

      expect((await api.get(PATH)).body).toStrictEqual(before);
    },
  );

  it('when a bad value comes with good ones, then none of them is applied', async () => {
    const { api } = await newApiAccount(app);

    expectInvalid(await patch(api, { soft_bounce_threshold: 3, expire_after_days: { bounce: 0 } }), expiry('bounce'));

    expect((await api.get(PATH)).body).toStrictEqual(DEFAULTS);
  });

  it('when the body has a key that is not a setting, then it is refused with 422 naming the key', async () => {
    const { api } = await newApiAccount(app);

    expectInvalid(
      await patch(api, { soft_bounce_threshold: 3, threshold: 3 }),
      'Unknown key `threshold` in the request body; the settings are `bounce_actions`, `soft_bounce_threshold`, `soft_bounce_window_days`, `expire_after_days` and `complaint_scope`.',
    );
    expectInvalid(
      await patch(api, { a: 1, b: 2 }),
      'Unknown keys `a`, `b` in the request body; the settings are `bounce_actions`, `soft_bounce_threshold`, `soft_bounce_window_days`, `expire_after_days` and `complaint_scope`.',
    );
    expect((await api.get(PATH)).body).toStrictEqual(DEFAULTS);
  });

  it('when expire_after_days has a key that is not an origin, then it is refused with 422 naming the key', async () => {
    const { api } = await newApiAccount(app);

    expectInvalid(
      await patch(api, { expire_after_days: { bounce: 30, hard_bounce: 30 } }),
      '`expire_after_days` has the unknown key `hard_bounce`; its keys are `bounce`, `complaint` and `manual`.',
    );
    expect((await api.get(PATH)).body).toStrictEqual(DEFAULTS);
  });

  it('when a very long unknown key is sent, then the message shows only its start', async () => {
    const { api } = await newApiAccount(app);

    const response = await patch(api, { ['k'.repeat(5000)]: 1 });

    expectError(response, 422, 'validation_error');
    expect(response.body.message).toContain(`\`${'k'.repeat(40)}…\``);
    expect(response.body.message.length).toBeLessThan(250);
  });

  it('when nothing is asked for, then it is refused with 422 rather than answered as a change', async () => {
    const { api } = await newApiAccount(app);

    expectInvalid(
      await patch(api, {}),
      'Provide at least one of `bounce_actions`, `soft_bounce_threshold`, `soft_bounce_window_days`, `expire_after_days` or `complaint_scope`.',
    );
    expectInvalid(
      await patch(api, { expire_after_days: {} }),
      '`expire_after_days` must name at least one of `bounce`, `complaint` or `manual`.',
    );
    expectInvalid(
      await patch(api, { expire_after_days: null }),
      '`expire_after_days` must be an object with any of `bounce`, `complaint` and `manual`.',
    );
  });

  it('when the body is not a JSON object, then it is refused with 422 as on the other routes', async () => {
    const { api } = await newApiAccount(app);

    expectInvalid(await patch(api, [{ soft_bounce_threshold: 3 }]), 'The request body must be a JSON object.');
    // The JSON parser is strict, as on every route: a bare value is no body at all.
    for (const rawBody of ['3', 'null', '"soft_bounce_threshold"', '{"soft_bounce_threshold":'])
      expectInvalid(await patch(api, undefined, rawBody), 'The request body must be a valid JSON object.');
    expectInvalid(
      await api.request('PATCH', PATH, {
        rawBody: 'soft_bounce_threshold=3',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      'The request body must be a JSON object.',
    );
  });
});

describe('/settings/suppressions: keys, methods and rate limit', () => {
  it('when the key may only send, then GET and PATCH are refused with 401 restricted_api_key and nothing changes', async () => {
    const owner = await newAccount(app.database.db);
    const sending = apiClient(app.server.url, (await newKey(app.database.db, owner.account, 'sending_access')).token);

    expectError(await sending.get(PATH), 401, 'restricted_api_key');
    expectError(await patch(sending, { soft_bounce_threshold: 3 }), 401, 'restricted_api_key');

    expect((await apiClient(app.server.url, owner.token).get(PATH)).body).toStrictEqual(DEFAULTS);
  });

  it('when no key is sent, then it answers 401, and when an unknown key is, 403', async () => {
    expectError(await apiClient(app.server.url, null).get(PATH), 401, 'missing_api_key');
    expectError(await patch(apiClient(app.server.url, null), { soft_bounce_threshold: 3 }), 401, 'missing_api_key');
    expectError(await apiClient(app.server.url, 'sl_not-a-key').get(PATH), 403, 'invalid_api_key');
  });

  it('when another method is used, then it answers 405 with the methods allowed', async () => {
    const { api } = await newApiAccount(app);

    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await api.request(method, PATH, { body: { soft_bounce_threshold: 3 } });
      expectError(response, 405, 'method_not_allowed');
      expect(response.headers.get('allow')).toBe('GET, PATCH');
    }
    expect((await api.get(PATH)).body).toStrictEqual(DEFAULTS);
  });

  it('when an account goes over its rate limit, then its settings requests are refused with 429 and retry-after', async () => {
    const { token } = await newAccount(app.database.db);
    const api = apiClient(slow.url, token);

    let response = await api.get(PATH);
    expect(response.headers.get('ratelimit-limit')).toBe('1');
    while (response.status === 200) response = await patch(api, { soft_bounce_window_days: 3 });

    expectError(response, 429, 'rate_limit_exceeded');
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
