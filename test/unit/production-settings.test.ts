import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { checkProductionSettings } from '../../src/production-settings.js';

const TOKEN = 'a'.repeat(32);
const SAFE = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://mail.example.com', METRICS_TOKEN: TOKEN };

function refusal(env: NodeJS.ProcessEnv): string | null {
  try {
    checkProductionSettings(loadConfig(env));
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('what production refuses to start with', () => {
  it('when every required setting is safe, then the start goes ahead, in every role', () => {
    for (const ROLE of ['all', 'api', 'workers']) expect(refusal({ ...SAFE, ADMIN_TOKEN: TOKEN, ROLE })).toBeNull();
  });

  it('when nothing is set, then the refusal names PUBLIC_BASE_URL and METRICS_TOKEN', () => {
    const message = refusal({ NODE_ENV: 'production' });
    expect(message).toContain('NODE_ENV=production');
    expect(message).toContain('PUBLIC_BASE_URL must be set');
    expect(message).toContain('METRICS_TOKEN must be set (at least 32 characters)');
  });

  it.each([
    ['PUBLIC_BASE_URL is unset', { PUBLIC_BASE_URL: undefined }, 'PUBLIC_BASE_URL must be set'],
    [
      'METRICS_TOKEN is one character',
      { METRICS_TOKEN: 'x' },
      'METRICS_TOKEN must be at least 32 characters (it has 1)',
    ],
    ['METRICS_TOKEN has 31 characters', { METRICS_TOKEN: 'm'.repeat(31) }, 'METRICS_TOKEN must be at least 32'],
    ['ADMIN_TOKEN is one character', { ADMIN_TOKEN: 'x' }, 'ADMIN_TOKEN must be at least 32 characters (it has 1)'],
    [
      'WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS is true',
      { WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true' },
      'WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS must not be true',
    ],
  ])('when %s, then the start is refused naming it', (_, change, expected) => {
    expect(refusal({ ...SAFE, ...change })).toContain(expected);
  });

  it('when the process runs only the workers, then it is held to the same rules, which the deployment’s roles share', () => {
    expect(refusal({ NODE_ENV: 'production', ROLE: 'workers', METRICS_TOKEN: TOKEN })).toContain(
      'PUBLIC_BASE_URL must be set',
    );
  });

  it('when NODE_ENV is not production, then nothing is refused', () => {
    expect(refusal({ METRICS_TOKEN: 'x', ADMIN_TOKEN: 'y', WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS: 'true' })).toBeNull();
  });
});
