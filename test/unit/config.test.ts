import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const DEFAULTS = {
  NODE_ENV: 'development',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
  DATABASE_POOL_SIZE: 10,
  DATABASE_STATEMENT_TIMEOUT_MS: 5000,
  REDIS_URL: 'redis://127.0.0.1:6379',
  HOST: '127.0.0.1',
  PORT: 3000,
  LOG_LEVEL: 'info',
  QUEUE_PREFIX: 'bull',
  WORKER_CONCURRENCY: 1000,
  RATE_LIMIT_PER_SECOND: 10,
  AUTH_FAILURES_PER_SECOND: 20,
  FEEDS_EMAIL_ID_TAG: 'email_id',
  FEEDS_SNS_EXTRA_CERT_HOSTS: [],
  WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: false,
  WEBHOOK_DELIVERY_CONCURRENCY: 50,
  WORKERS: ['events', 'batches', 'webhooks'],
  CONSOLE_SESSION_HOURS: 8,
};

/** The ConfigError that loading this environment throws. */
function configErrorFor(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

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

  it('when WORKERS names some workers, with spaces and a repeat, then those are read, each once', () => {
    expect(loadConfig({ WORKERS: ' webhooks, events ,webhooks' }).WORKERS).toEqual(['webhooks', 'events']);
  });

  it.each(['deliveries', ',', 'events,mail'])('when WORKERS is "%s", then a ConfigError names it', (value) => {
    expect(() => loadConfig({ WORKERS: value })).toThrow(/WORKERS/);
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

describe('Redis Cluster settings', () => {
  it('when REDIS_CLUSTER_NODES lists nodes with spaces and empty items, then they are read as hosts and ports', () => {
    const config = loadConfig({
      REDIS_CLUSTER_NODES: ' cache-1.internal:7000, ,10.0.0.2:7001,',
      QUEUE_PREFIX: '{sl}',
      REDIS_URL: 'rediss://app:secret@cache.internal:6380',
    });
    expect(config.REDIS_CLUSTER_NODES).toEqual([
      { host: 'cache-1.internal', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
    ]);
    expect(config.REDIS_URL).toBe('rediss://app:secret@cache.internal:6380');
  });

  it('when REDIS_CLUSTER_NODES is unset, then it stays undefined and any QUEUE_PREFIX is taken', () => {
    const config = loadConfig({ QUEUE_PREFIX: 'bull' });
    expect(config.REDIS_CLUSTER_NODES).toBeUndefined();
  });

  it.each(['bull', 'sl{}', '}sl{', 'sl{open'])(
    'when REDIS_CLUSTER_NODES is set and QUEUE_PREFIX is %j, then the service refuses to start naming QUEUE_PREFIX and the hash tag',
    (prefix) => {
      const message = configErrorFor({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_PREFIX: prefix }).message;
      expect(message).toContain(
        "QUEUE_PREFIX: must contain a hash tag such as {sl} when REDIS_CLUSTER_NODES is set: BullMQ keeps each queue's keys in one slot",
      );
    },
  );

  it('when REDIS_CLUSTER_NODES is set and QUEUE_PREFIX is left to its default, then the service refuses to start', () => {
    expect(configErrorFor({ REDIS_CLUSTER_NODES: '127.0.0.1:7000' }).message).toMatch(
      /QUEUE_PREFIX: must contain a hash tag/,
    );
  });

  it.each(['{sl}', 'app:{suppressions}', '{a}{b}'])(
    'when REDIS_CLUSTER_NODES is set and QUEUE_PREFIX is %j, then it is accepted',
    (prefix) => {
      expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_PREFIX: prefix }).QUEUE_PREFIX).toBe(prefix);
    },
  );

  it.each(['127.0.0.1', ':7000', '127.0.0.1:port', '127.0.0.1:70000', ','])(
    'when REDIS_CLUSTER_NODES is %j, then a ConfigError names REDIS_CLUSTER_NODES',
    (value) => {
      expect(configErrorFor({ REDIS_CLUSTER_NODES: value, QUEUE_PREFIX: '{sl}' }).message).toContain(
        'REDIS_CLUSTER_NODES',
      );
    },
  );

  it('when REDIS_CLUSTER_NODES is set and REDIS_URL names a database, then a ConfigError names REDIS_URL', () => {
    const message = configErrorFor({
      REDIS_CLUSTER_NODES: '127.0.0.1:7000',
      QUEUE_PREFIX: '{sl}',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
    }).message;
    expect(message).toContain('REDIS_URL: must not name a database when REDIS_CLUSTER_NODES is set');
  });
});
