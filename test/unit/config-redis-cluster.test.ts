import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configErrorFor } from '../support/config-error.js';

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

  it('when REDIS_CLUSTER_NODES is set and REDIS_KEY_PREFIX holds a hash tag, then a ConfigError names REDIS_KEY_PREFIX', () => {
    const message = configErrorFor({
      REDIS_CLUSTER_NODES: '127.0.0.1:7000',
      QUEUE_PREFIX: '{sl}',
      REDIS_KEY_PREFIX: '{sl}:',
    }).message;
    expect(message).toContain('REDIS_KEY_PREFIX: must not contain a hash tag when REDIS_CLUSTER_NODES is set');
  });

  it('when REDIS_CLUSTER_NODES is unset, then a REDIS_KEY_PREFIX with braces is taken', () => {
    expect(loadConfig({ REDIS_KEY_PREFIX: '{sl}:' }).REDIS_KEY_PREFIX).toBe('{sl}:');
  });

  it('when REDIS_CLUSTER_NODES is set and REDIS_URL names a database, then a ConfigError names REDIS_URL', () => {
    const message = configErrorFor({
      REDIS_CLUSTER_NODES: '127.0.0.1:7000',
      QUEUE_PREFIX: '{sl}',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
    }).message;
    expect(message).toContain('REDIS_URL: must not name a database when REDIS_CLUSTER_NODES is set');
  });
});

describe('waiting for Redis replicas', () => {
  it('when REDIS_WAIT_REPLICAS is unset, then producers wait for none; when set, it is read as a number', () => {
    expect(loadConfig({}).REDIS_WAIT_REPLICAS).toBe(0);
    expect(loadConfig({ REDIS_WAIT_REPLICAS: '1' }).REDIS_WAIT_REPLICAS).toBe(1);
  });

  it.each(['-1', 'one', '17'])('when REDIS_WAIT_REPLICAS is %j, then a ConfigError names it', (value) => {
    expect(configErrorFor({ REDIS_WAIT_REPLICAS: value }).message).toContain('REDIS_WAIT_REPLICAS');
  });
});
