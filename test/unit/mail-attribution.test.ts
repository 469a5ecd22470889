import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/database.js';
import { loadConfig } from '../../src/config.js';
import { attributeMessage } from '../../src/mail/messages/attribution.js';
import { messageEvidence } from '../../src/mail/messages/message-evidence.js';
import { parseMailMessage } from '../../src/mail/report/parse-mail-message.js';
import { arf, dsn, personalMessage } from '../support/mail-messages.js';

const ACCOUNT = '0190c7f6-3c2a-7b3e-9f00-6d1a2b3c4d5e';
const SETTINGS = {
  bounceDomains: ['bounces.example.com', 'legacy.example.com'],
  localPart: 'bounces',
  unsignedDomains: new Map([['legacy.example.com', ACCOUNT]]),
};
/** Reports without a return path never reach the database: a query here is a fault. */
const noDatabase: Queryable = {
  query: () => Promise.reject(new Error('no query was expected')),
};
const NOW = { now: new Date('2026-11-27T10:00:00Z') };
const ENVELOPE = { mail_from: null, rcpt_to: [] };

describe('a bounce domain that acts without return paths (MAIL_UNSIGNED_DOMAINS)', () => {
  it('when a DSN comes to it, then it acts for its account on the recipients the report names', async () => {
    const parsed = await parseMailMessage(
      dsn('bounces@legacy.example.com', [
        { recipient: 'gone@example.org', status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
        { recipient: 'full@example.org', status: '5.2.2', diagnostic: '552 5.2.2 Mailbox full' },
      ]),
    );

    const attribution = await attributeMessage(noDatabase, parsed, ENVELOPE, SETTINGS, NOW);
    const evidence = messageEvidence(parsed, attribution, {
      digest: 'ab'.repeat(32),
      receivedAt: '2026-11-27T10:00:00.000Z',
    });

    expect(attribution).toEqual({
      verified: true,
      accountId: ACCOUNT,
      recipient: null,
      scope: null,
      by: 'bounce_domain',
    });
    expect(evidence.events.map((event) => [event.account_id, event.email, event.bounce?.status])).toEqual([
      [ACCOUNT, 'gone@example.org', '5.1.1'],
      [ACCOUNT, 'full@example.org', '5.2.2'],
    ]);
  });

  it('when another account uploads a report to it, then it acts for nobody', async () => {
    const parsed = await parseMailMessage(
      dsn('bounces@legacy.example.com', [
        { recipient: 'gone@example.org', status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
      ]),
    );

    const attribution = await attributeMessage(noDatabase, parsed, ENVELOPE, SETTINGS, {
      ...NOW,
      uploadedBy: '0190c7f6-3c2a-7b3e-9f00-000000000000',
    });

    expect(attribution).toEqual({ verified: false, reason: 'other_account' });
  });

  it('when a complaint encloses a message whose return path is at no bounce domain, then it acts for nobody and gives no event', async () => {
    const parsed = await parseMailMessage(arf('reader@example.org', 'news@sender.example.com'));

    const attribution = await attributeMessage(noDatabase, parsed, ENVELOPE, SETTINGS, NOW);
    const evidence = messageEvidence(parsed, attribution, {
      digest: 'cd'.repeat(32),
      receivedAt: '2026-11-27T10:00:00.000Z',
    });

    expect(attribution).toEqual({ verified: false, reason: 'no_return_path' });
    expect(evidence.events).toEqual([]);
    expect(evidence.results).toMatchObject([{ kind: 'complaint', outcome: 'unverified' }]);
  });

  it('when a person writes to it, then the message is recorded and gives no event', async () => {
    const parsed = await parseMailMessage(personalMessage('bounces@legacy.example.com'));

    const attribution = await attributeMessage(noDatabase, parsed, ENVELOPE, SETTINGS, NOW);
    const evidence = messageEvidence(parsed, attribution, {
      digest: 'ef'.repeat(32),
      receivedAt: '2026-11-27T10:00:00.000Z',
    });

    expect(evidence).toEqual({
      events: [],
      results: [{ index: 0, kind: 'not_a_report', recipient: null, outcome: 'recorded', event_id: null }],
    });
  });
});

describe('MAIL_UNSIGNED_DOMAINS', () => {
  it('when it lists domains with their accounts, then each is read lower-cased', () => {
    const config = loadConfig({
      MAIL_UNSIGNED_DOMAINS: ` Legacy.Example.com=${ACCOUNT.toUpperCase()} , old.example.net=${ACCOUNT}`,
    });

    expect([...config.MAIL_UNSIGNED_DOMAINS]).toEqual([
      ['legacy.example.com', ACCOUNT],
      ['old.example.net', ACCOUNT],
    ]);
  });

  it.each(['legacy.example.com', 'legacy.example.com=not-a-uuid', `=${ACCOUNT}`])(
    'when an item is "%s", then the setting is refused, naming it',
    (value) => {
      expect(() => loadConfig({ MAIL_UNSIGNED_DOMAINS: value })).toThrow(/MAIL_UNSIGNED_DOMAINS/);
    },
  );
});

describe('MAIL_MAX_MESSAGE_BYTES', () => {
  it('when it is above the 10 MB that POST /messages reads, then the setting is refused, naming it', () => {
    expect(() => loadConfig({ MAIL_MAX_MESSAGE_BYTES: String(10 * 2 ** 20 + 1) })).toThrow(/MAIL_MAX_MESSAGE_BYTES/);
    expect(loadConfig({ MAIL_MAX_MESSAGE_BYTES: String(2 ** 20) }).MAIL_MAX_MESSAGE_BYTES).toBe(2 ** 20);
  });
});
