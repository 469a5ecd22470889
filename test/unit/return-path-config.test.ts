import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configErrorFor } from '../support/config-error.js';

describe('the return paths’ settings', () => {
  it('when BOUNCE_DOMAINS lists domains with spaces, capitals, repeats and empty items, then each is read once, lower-cased, in order', () => {
    expect(
      loadConfig({ BOUNCE_DOMAINS: ' Bounces.Example.com, ,bounces.example.net,bounces.example.com,' }).BOUNCE_DOMAINS,
    ).toEqual(['bounces.example.com', 'bounces.example.net']);
  });

  it.each(['localhost', 'bounces.example.com/x', '-bad.example.com', 'bounces..example.com', ','])(
    'when BOUNCE_DOMAINS holds "%s", then a ConfigError names the variable',
    (value) => {
      expect(configErrorFor({ BOUNCE_DOMAINS: value }).message).toContain('BOUNCE_DOMAINS');
    },
  );

  it('when BOUNCE_LOCAL_PART is not a plain lower-case local part, then a ConfigError names it', () => {
    expect(loadConfig({ BOUNCE_LOCAL_PART: 'mail-bounces' }).BOUNCE_LOCAL_PART).toBe('mail-bounces');
    for (const value of ['Bounces', 'bounces+x', 'a..b', 'x'.repeat(33)]) {
      expect(configErrorFor({ BOUNCE_LOCAL_PART: value }).message).toContain('BOUNCE_LOCAL_PART');
    }
  });

  it('when RETURN_PATH_SECRET_OVERLAP_DAYS is set, then it is a whole number of days up to a year', () => {
    expect(loadConfig({ RETURN_PATH_SECRET_OVERLAP_DAYS: '0' }).RETURN_PATH_SECRET_OVERLAP_DAYS).toBe(0);
    expect(loadConfig({ RETURN_PATH_SECRET_OVERLAP_DAYS: '30' }).RETURN_PATH_SECRET_OVERLAP_DAYS).toBe(30);
    for (const value of ['366', '-1', '7.5', 'week']) {
      expect(configErrorFor({ RETURN_PATH_SECRET_OVERLAP_DAYS: value }).message).toContain(
        'RETURN_PATH_SECRET_OVERLAP_DAYS',
      );
    }
  });
});
