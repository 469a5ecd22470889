import { describe, expect, it } from 'vitest';
import { generateToken } from '../../src/accounts/api-key-token.js';
import { captureLogs } from '../support/log-capture.js';

describe('every log line', () => {
  it('when an address reaches a log line in any field or message, then it is written as [email]', () => {
    const { logger, lines } = captureLogs('info');
    logger.error(
      { path: '/suppressions/Kate@Example.com', url: '/suppressions/a%40b.co?x=1', nested: { to: ['c@d.org'] } },
      'could not remove e.f@g.example or user@[127.0.0.1]',
    );
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    for (const address of ['Kate@Example.com', 'a%40b.co', 'c@d.org', 'e.f@g.example', 'user@[127.0.0.1]']) {
      expect(line).not.toContain(address);
    }
    expect(line.match(/\[email\]/g)).toHaveLength(5);
  });

  it('when a token reaches a log line, as a field, in a URL or after its scheme, then it is written as [redacted]', () => {
    const { logger, lines } = captureLogs('info');
    const token = generateToken();
    logger.warn({ url: `/suppressions?key=${token}`, header: 'Bearer not-our-format-at-all', token: 'plain' }, token);
    const line = lines[0]!;
    expect(line).not.toContain(token);
    expect(line).not.toContain('not-our-format-at-all');
    expect(line).not.toContain('plain');
    expect(JSON.parse(line)).toMatchObject({ token: '[redacted]', header: 'Bearer [redacted]', msg: '[redacted]' });
  });

  it('when a line holds neither, then it is written as given', () => {
    const { logger, lines } = captureLogs('info');
    logger.info({ route: '/suppressions/:suppression', status: 404 }, 'request completed');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      route: '/suppressions/:suppression',
      status: 404,
      msg: 'request completed',
    });
  });
});
