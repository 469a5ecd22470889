import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configErrorFor } from '../support/config-error.js';

const DEFAULTS = {
  NODE_ENV: 'development',
  ROLE: 'all',
  SHUTDOWN_DELAY_MS: 0,
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
  DATABASE_POOL_SIZE: 10,
  DATABASE_STATEMENT_TIMEOUT_MS: 5000,
  DATABASE_READ_MAX_LAG_MS: 1000,
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_WAIT_REPLICAS: 0,
  HOST: '127.0.0.1',
  PORT: 3000,
  LOG_LEVEL: 'info',
  QUEUE_PREFIX: 'bull',
  REDIS_KEY_PREFIX: 'sl:',
  WORKER_CONCURRENCY: 1000,
  RATE_LIMIT_PER_SECOND: 10,
  AUTH_FAILURES_PER_SECOND: 20,
  AUTH_CACHE_TTL_MS: 5000,
  TRUST_PROXY: false,
  BOUNCE_DOMAINS: [],
  BOUNCE_LOCAL_PART: 'bounces',
  RETURN_PATH_SECRET_OVERLAP_DAYS: 7,
  MAIL_UNSIGNED_DOMAINS: new Map(),
  MAIL_MAX_MESSAGE_BYTES: 10 * 2 ** 20,
  IMAP_POLL_SECONDS: 60,
  IMAP_AFTER: { action: 'move', folder: 'Processed' },
  IMAP_TLS_REJECT_UNAUTHORIZED: true,
  SMTP_HOST: '127.0.0.1',
  SMTP_PROTOCOL: 'smtp',
  SMTP_MAX_CONNECTIONS: 100,
  SMTP_MESSAGES_PER_MINUTE_PER_CLIENT: 3000,
  FEEDS_EMAIL_ID_TAG: 'email_id',
  FEEDS_SNS_EXTRA_CERT_HOSTS: [],
  WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: false,
  WEBHOOKS_PRIVATE_CIDRS: [],
  WEBHOOK_DELIVERY_CONCURRENCY: 50,
  WORKERS: ['events', 'batches', 'webhooks'],
  CHECK_FILTER: 'on',
  CHECK_CACHE_ENTRIES: 50_000,
  CONSOLE_SESSION_HOURS: 8,
};

describe('loadConfig', () => {
  it('when nothing is set, then every value takes its documented default', () => {
    expect(loadConfig({})).toEqual(DEFAULTS);
  });

  it('when the configuration is loaded, then it cannot be changed', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when values are set, then they are parsed into their types', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://app:secret@db.internal:6543/suppressions',
      DATABASE_POOL_SIZE: '25',
      REDIS_URL: 'rediss://cache.internal:6380',
      HOST: '0.0.0.0',
      PORT: '8080',
      LOG_LEVEL: 'debug',
      QUEUE_PREFIX: '{suppressions}',
      WORKER_CONCURRENCY: '5',
      RATE_LIMIT_PER_SECOND: '100',
    });
    expect(config).toMatchObject({
      DATABASE_URL: 'postgresql://app:secret@db.internal:6543/suppressions',
      DATABASE_POOL_SIZE: 25,
      REDIS_URL: 'rediss://cache.internal:6380',
      HOST: '0.0.0.0',
      PORT: 8080,
      LOG_LEVEL: 'debug',
      QUEUE_PREFIX: '{suppressions}',
      WORKER_CONCURRENCY: 5,
      RATE_LIMIT_PER_SECOND: 100,
    });
  });

  it.each([
    ['1', 1],
    ['true', true],
    ['false', false],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('when TRUST_PROXY is %j, then Express is given %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toStrictEqual(expected);
  });

  it('when PORT is 0, then it is accepted (a free port is picked)', () => {
    expect(loadConfig({ PORT: '0' }).PORT).toBe(0);
  });

  it('when variables are set to empty strings, then they are treated as unset', () => {
    const config = loadConfig({
      PORT: '',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: '',
      HOST: '',
      WORKER_CONCURRENCY: '',
    });
    expect(config).toEqual(DEFAULTS);
  });

  it('when unrelated variables are present, then they are ignored', () => {
    const config = loadConfig({ PATH: '/usr/bin', HOME: '/root', PORT: '4000' });
    expect(config.PORT).toBe(4000);
    expect(config).not.toHaveProperty('PATH');
  });

  it.each(['abc', '70000', '65536', '-1', '3.5', '80 80'])(
    'when PORT is %j, then a ConfigError names PORT',
    (value) => {
      const error = configErrorFor({ PORT: value });
      expect(error.name).toBe('ConfigError');
      expect(error.message).toMatch(/\bPORT\b/);
    },
  );

  it('when PORT is only whitespace, then a ConfigError names PORT rather than binding a random port', () => {
    expect(configErrorFor({ PORT: '   ' }).message).toMatch(/\bPORT\b/);
  });

  it.each(['not a url', 'mysql://user@127.0.0.1:3306/db', 'http://127.0.0.1:5432/postgres', '127.0.0.1:5432'])(
    'when DATABASE_URL is %j, then a ConfigError names DATABASE_URL',
    (value) => {
      expect(configErrorFor({ DATABASE_URL: value }).message).toContain('DATABASE_URL');
    },
  );

  it('when REDIS_URL is not a redis URL, then a ConfigError names REDIS_URL', () => {
    expect(configErrorFor({ REDIS_URL: 'http://127.0.0.1:6379' }).message).toContain('REDIS_URL');
  });

  it('when LOG_LEVEL is unknown, then a ConfigError names LOG_LEVEL', () => {
    expect(configErrorFor({ LOG_LEVEL: 'verbose' }).message).toContain('LOG_LEVEL');
  });

  it.each(['0', '-5', 'many'])(
    'when WORKER_CONCURRENCY is %j, then a ConfigError names WORKER_CONCURRENCY',
    (value) => {
      expect(configErrorFor({ WORKER_CONCURRENCY: value }).message).toContain('WORKER_CONCURRENCY');
    },
  );

  it('when several values are bad, then the message names each of them and no good one', () => {
    const message = configErrorFor({ PORT: 'x', DATABASE_URL: 'nope', HOST: 'db' }).message;
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('HOST');
  });
});

describe('operations settings', () => {
  it('when METRICS_TOKEN, ADMIN_TOKEN and DATABASE_STATEMENT_TIMEOUT_MS are set, then they are read; unset tokens stay undefined', () => {
    const config = loadConfig({
      METRICS_TOKEN: 'm-token',
      ADMIN_TOKEN: 'a-token',
      DATABASE_STATEMENT_TIMEOUT_MS: '2500',
    });
    expect(config).toMatchObject({
      METRICS_TOKEN: 'm-token',
      ADMIN_TOKEN: 'a-token',
      DATABASE_STATEMENT_TIMEOUT_MS: 2500,
    });
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({}).ADMIN_TOKEN).toBeUndefined();
  });

  it('when DATABASE_STATEMENT_TIMEOUT_MS is not a positive whole number, then a ConfigError names it', () => {
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });
});

describe('read replica settings', () => {
  it('when DATABASE_READ_URL is unset, then there are no replicas and the lag bound is 1000 ms', () => {
    const config = loadConfig({});
    expect(config.DATABASE_READ_URL).toBeUndefined();
    expect(config.DATABASE_READ_MAX_LAG_MS).toBe(1000);
  });

  it('when DATABASE_READ_URL lists URLs with spaces, empty items and a repeat, then each is read once', () => {
    const config = loadConfig({
      DATABASE_READ_URL:
        ' postgres://app@replica-1:5432/sl, ,postgresql://app:secret@replica-2/sl,postgres://app@replica-1:5432/sl',
      DATABASE_READ_MAX_LAG_MS: '250',
    });
    expect(config.DATABASE_READ_URL).toEqual([
      'postgres://app@replica-1:5432/sl',
      'postgresql://app:secret@replica-2/sl',
    ]);
    expect(config.DATABASE_READ_MAX_LAG_MS).toBe(250);
  });

  it.each([',', 'replica-1:5432', 'postgres://app@replica-1/sl,mysql://app@replica-2/sl'])(
    'when DATABASE_READ_URL is %j, then a ConfigError names it',
    (value) => {
      expect(configErrorFor({ DATABASE_READ_URL: value }).message).toContain('DATABASE_READ_URL');
    },
  );

  it.each(['0', '60001', 'soon'])('when DATABASE_READ_MAX_LAG_MS is %j, then a ConfigError names it', (value) => {
    expect(configErrorFor({ DATABASE_READ_MAX_LAG_MS: value }).message).toContain('DATABASE_READ_MAX_LAG_MS');
  });
});

describe('feed settings', () => {
  it('when FEEDS_SNS_EXTRA_CERT_HOSTS lists hosts with spaces and empty items, then they are read as a clean list', () => {
    expect(
      loadConfig({ FEEDS_SNS_EXTRA_CERT_HOSTS: ' 127.0.0.1:9000, ,[::1]:9001,' }).FEEDS_SNS_EXTRA_CERT_HOSTS,
    ).toEqual(['127.0.0.1:9000', '[::1]:9001']);
  });
});

describe('webhook settings', () => {
  it('when WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS is "true" or "false", then it is read as that boolean', () => {
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true' }).WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS).toBe(true);
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'false' }).WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS).toBe(false);
  });

  it.each(['yes', '1', 'TRUE'])(
    'when WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS is "%s", then a ConfigError names it',
    (value) => {
      expect(() => loadConfig({ WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: value })).toThrow(
        /WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: must be true or false/,
      );
    },
  );

  it('when WEBHOOKS_PRIVATE_CIDRS lists IPv4 and IPv6 ranges with spaces and empty items, then each is read as its network and prefix length', () => {
    expect(
      loadConfig({ WEBHOOKS_PRIVATE_CIDRS: ' 10.20.3.4/16, ,FD12:3456::1/48,192.168.7.0/24,' }).WEBHOOKS_PRIVATE_CIDRS,
    ).toEqual(['10.20.0.0/16', 'fd12:3456::/48', '192.168.7.0/24']);
  });

  it.each([
    '10.0.0.0',
    '10.0.0/8',
    '010.0.0.0/8',
    '10.0.0.0/33',
    'fd00::/129',
    'fe80::%eth0/64',
    'internal.example/24',
  ])(
    'when WEBHOOKS_PRIVATE_CIDRS holds the malformed CIDR "%s", then a ConfigError names the variable and the CIDR',
    (cidr) => {
      const message = configErrorFor({ WEBHOOKS_PRIVATE_CIDRS: `10.20.0.0/16,${cidr}` }).message;
      expect(message).toContain('WEBHOOKS_PRIVATE_CIDRS');
      expect(message).toContain(
        `must be an IPv4 or IPv6 CIDR such as 10.20.0.0/16 or fd12:3456::/48, and "${cidr}" is not`,
      );
    },
  );

  it('when WORKERS names some workers, with spaces and a repeat, then those are read, each once', () => {
    expect(loadConfig({ WORKERS: ' webhooks, events ,webhooks' }).WORKERS).toEqual(['webhooks', 'events']);
  });

  it.each(['deliveries', ',', 'events,mail'])('when WORKERS is "%s", then a ConfigError names it', (value) => {
    expect(() => loadConfig({ WORKERS: value })).toThrow(/WORKERS/);
  });
});

describe('API settings', () => {
  it('when REDIS_KEY_PREFIX and AUTH_CACHE_TTL_MS are set, then they are read', () => {
    expect(loadConfig({ REDIS_KEY_PREFIX: 'suppressions:', AUTH_CACHE_TTL_MS: '250' })).toMatchObject({
      REDIS_KEY_PREFIX: 'suppressions:',
      AUTH_CACHE_TTL_MS: 250,
    });
  });

  it.each(['sl: x', 'a\tb'])('when REDIS_KEY_PREFIX is %j, then a ConfigError names it', (value) => {
    expect(configErrorFor({ REDIS_KEY_PREFIX: value }).message).toContain('REDIS_KEY_PREFIX: must not contain spaces');
  });

  it.each(['0', '60001', '1.5'])('when AUTH_CACHE_TTL_MS is "%s", then a ConfigError names it', (value) => {
    expect(configErrorFor({ AUTH_CACHE_TTL_MS: value }).message).toContain('AUTH_CACHE_TTL_MS');
  });
});

describe('console settings', () => {
  it('when CONSOLE_SESSION_HOURS and CONSOLE_DIR are set, then they are read', () => {
    expect(loadConfig({ CONSOLE_SESSION_HOURS: '24', CONSOLE_DIR: ' /srv/console ' })).toMatchObject({
      CONSOLE_SESSION_HOURS: 24,
      CONSOLE_DIR: '/srv/console',
    });
  });

  it.each(['0', '721', '1.5', 'eight'])('when CONSOLE_SESSION_HOURS is "%s", then a ConfigError names it', (value) => {
    expect(() => loadConfig({ CONSOLE_SESSION_HOURS: value })).toThrow(/CONSOLE_SESSION_HOURS/);
  });
});

describe('process settings', () => {
  it.each(['all', 'api', 'workers'])('when ROLE is "%s", then it is read', (role) => {
    expect(loadConfig({ ROLE: role }).ROLE).toBe(role);
  });

  it.each(['worker', 'API', 'both'])('when ROLE is "%s", then a ConfigError names ROLE and its choices', (value) => {
    expect(configErrorFor({ ROLE: value }).message).toContain('ROLE: must be one of all, api, workers');
  });

  it('when SHUTDOWN_DELAY_MS is set, then it is read in milliseconds', () => {
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '5000' }).SHUTDOWN_DELAY_MS).toBe(5000);
  });

  it.each(['60001', '-1', 'soon'])('when SHUTDOWN_DELAY_MS is "%s", then a ConfigError names it', (value) => {
    expect(configErrorFor({ SHUTDOWN_DELAY_MS: value }).message).toContain('SHUTDOWN_DELAY_MS');
  });
});

describe('mail listener settings', () => {
  it('when SMTP_PORT is set without a bounce domain, then it is refused: the listener would take no mail', () => {
    expect(configErrorFor({ SMTP_PORT: '2525' }).message).toMatch(/SMTP_PORT: needs BOUNCE_DOMAINS/);
    expect(loadConfig({ SMTP_PORT: '2525', BOUNCE_DOMAINS: 'bounces.example.com' })).toMatchObject({ SMTP_PORT: 2525 });
  });

  it('when only one of SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE is set, then it is refused naming the other', () => {
    expect(configErrorFor({ SMTP_TLS_CERT_FILE: '/etc/ssl/cert.pem' }).message).toMatch(
      /SMTP_TLS_KEY_FILE: must be set/,
    );
    expect(configErrorFor({ SMTP_TLS_KEY_FILE: '/etc/ssl/key.pem' }).message).toMatch(
      /SMTP_TLS_CERT_FILE: must be set/,
    );
  });
});

describe('the IMAP mailbox settings', () => {
  it('when IMAP_URL is set without IMAP_PASSWORD, then the configuration is refused naming the password', () => {
    expect(configErrorFor({ IMAP_URL: 'imaps://bounces@mail.example.com/INBOX' }).message).toMatch(
      /IMAP_PASSWORD: must be set \(or IMAP_PASSWORD_FILE\) when IMAP_URL is/,
    );
  });

  it.each([
    ['imaps://mail.example.com/INBOX', 'must name the user'],
    ['imaps://bounces:secret@mail.example.com/INBOX', 'must not hold the password'],
    ['https://bounces@mail.example.com/INBOX', 'must be an imaps:// or imap:// URL'],
  ])('when IMAP_URL is %j, then it is refused: %s', (value, problem) => {
    expect(configErrorFor({ IMAP_URL: value, IMAP_PASSWORD: 'pw' }).message).toContain(`IMAP_URL: ${problem}`);
  });

  it.each([
    ['move:Bounces/Done', { action: 'move', folder: 'Bounces/Done' }],
    ['flag', { action: 'flag' }],
    ['keep', { action: 'keep' }],
  ])('when IMAP_AFTER is %j, then it reads as %j', (value, expected) => {
    expect(loadConfig({ IMAP_AFTER: value }).IMAP_AFTER).toEqual(expected);
  });

  it.each(['delete', 'move:', 'move'])('when IMAP_AFTER is %j, then it is refused', (value) => {
    expect(configErrorFor({ IMAP_AFTER: value }).message).toContain('IMAP_AFTER: must be move:<folder>, flag or keep');
  });
});
