import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSuppressionEvent } from '../../src/events/event-schema.js';
import type { FeedMapper } from '../../src/feeds/feed-mapping.js';
import { mapMailgun } from '../../src/feeds/providers/mailgun/mapping.js';
import { acceptsScopeSource, messageScope, type ScopeSource } from '../../src/feeds/message-scope.js';
import { mapPostmark } from '../../src/feeds/providers/postmark/mapping.js';
import { feedProvider } from '../../src/feeds/providers/index.js';
import { mapResend } from '../../src/feeds/providers/resend/mapping.js';
import { mapSendGrid } from '../../src/feeds/providers/sendgrid/mapping.js';
import { mapSes } from '../../src/feeds/providers/ses/mapping.js';

const ACCOUNT = '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d';

function fixture(provider: string, name: string): string {
  return readFileSync(new URL(`../fixtures/feeds/${provider}/${name}`, import.meta.url), 'utf8');
}

/** The scopes of the events a provider's payload maps to, for a feed reading them from `scopeFrom`. */
function scopesOf(map: FeedMapper, body: string, scopeFrom: ScopeSource | null): (string | null | undefined)[] {
  const { events } = map(body, { id: 'delivery-1' }, { accountId: ACCOUNT, emailIdTag: 'email_id', scopeFrom });
  return events.map((event) => parseSuppressionEvent(event).scope);
}

const postmarkComplaint = fixture('postmark', 'spam-complaint.json');

describe('the scope a feed reads from each provider’s messages', () => {
  it.each<[string, FeedMapper, string, ScopeSource, string | undefined]>([
    ['Postmark’s message stream', mapPostmark, postmarkComplaint, 'stream', 'outbound'],
    ['Postmark metadata', mapPostmark, postmarkComplaint, 'tag:a_key', 'a_value'],
    [
      'the SES configuration set',
      mapSes,
      fixture('ses', 'event-publishing-complaint.json'),
      'configuration-set',
      'configset',
    ],
    // "cat facts" holds a space: it cannot be a scope, so the complaint is for the whole account.
    ['SendGrid’s category', mapSendGrid, fixture('sendgrid', 'spamreport.json'), 'category', undefined],
    ['Mailgun’s first tag', mapMailgun, fixture('mailgun', 'complained.json'), 'tag', 'webhook_payload'],
    ['a Resend tag', mapResend, fixture('resend', 'complained.json'), 'tag:category', 'confirm_email'],
  ])(
    'when a feed reads %s, then each event carries it, lower-cased, as its scope',
    (_, map, body, source, expected) => {
      const scopes = scopesOf(map, body, source);
      expect(scopes.length).toBeGreaterThan(0);
      for (const scope of scopes) expect(scope).toBe(expected);
    },
  );

  it('when a feed reads no scope, then every event is for the whole account, whatever the message says', () => {
    expect(scopesOf(mapPostmark, postmarkComplaint, null)).toEqual([undefined]);
  });

  it('when the message lacks what the feed reads, then the event is for the whole account', () => {
    expect(scopesOf(mapPostmark, postmarkComplaint, 'tag:no_such_key')).toEqual([undefined]);
  });
});

describe('reading a scope from a value', () => {
  it.each<[unknown, string | undefined]>([
    ['Broadcast', 'broadcast'],
    ['  newsletter-weekly ', 'newsletter-weekly'],
    [12345, '12345'],
    [['first', 'second'], 'first'],
    ['two words', undefined],
    ['x'.repeat(65), undefined],
    ['', undefined],
    [{ name: 'stream' }, undefined],
    [1.5, undefined],
  ])('when the value is %j, then the scope is %j', (value, expected) => {
    expect(messageScope('stream', { stream: value })).toBe(expected);
  });

  it('when a provider is asked for a source its messages do not carry, then it is not taken', () => {
    expect(acceptsScopeSource(feedProvider('postmark').scopeSources, 'stream')).toBe(true);
    expect(acceptsScopeSource(feedProvider('postmark').scopeSources, 'tag:stream_name')).toBe(true);
    expect(acceptsScopeSource(feedProvider('resend').scopeSources, 'stream')).toBe(false);
    expect(acceptsScopeSource(feedProvider('ses').scopeSources, 'asm-group')).toBe(false);
    expect(acceptsScopeSource(feedProvider('sendgrid').scopeSources, 'tag:')).toBe(false);
  });
});
