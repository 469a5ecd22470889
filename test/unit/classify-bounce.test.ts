import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOUNCE_CATEGORIES, BOUNCE_REASONS, DEFAULT_BOUNCE_ACTIONS } from '../../src/domain/bounce-categories.js';
import { classifyBounce, CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';
import { bouncedRecipient } from '../../src/bounces/bounced-recipient.js';
import { words } from '../../src/bounces/phrase-matcher.js';

const permanent = (diagnostic: string, status?: string) => classifyBounce({ type: 'permanent', status, diagnostic });

describe('the text decides before the code, the code before the label', () => {
  it.each([
    [
      'a DNS block list',
      '550 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using zen.spamhaus.org',
      'blocklisted',
    ],
    [
      'a mailbox provider’s own block list',
      "550 5.7.1 Unfortunately, messages from [203.0.113.7] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).",
      'blocklisted',
    ],
    [
      'unauthenticated mail',
      '550-5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM.',
      'authentication',
    ],
    ['a policy refusal', '554 5.7.9 Message not accepted for policy reasons.', 'policy'],
    [
      'a rate limit worded with 5.1.1',
      '550 5.1.1 <a@example.org>... 203.0.113.222 has sent to too many recipients this hour',
      'rate_limited',
    ],
    [
      'a spam verdict',
      '550 5.7.1 Our system has detected that this message is likely unsolicited mail.',
      'spam_content',
    ],
    ['a message too big', '552 5.3.4 Message size exceeds fixed maximum message size', 'message_too_large'],
    ['relaying refused', '554 5.7.1 <a@example.org>: Relay access denied', 'relay_denied'],
  ])('when a permanent bounce is %s, then it is sender_blocked (%s), never a dead address', (_what, text, reason) => {
    expect(permanent(text)).toMatchObject({ category: 'sender_blocked', reason });
  });

  it.each([
    [
      'an unknown user',
      'smtp; 550 5.1.1 <jane@example.com>: Recipient address rejected: User unknown in virtual mailbox table',
      'user_unknown',
    ],
    [
      'a mailbox that does not exist',
      "550-5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address",
      'user_unknown',
    ],
    [
      'a domain that does not exist',
      'Host or domain name not found. Name service error for name=no-such-domain.example type=A: Host not found',
      'domain_unknown',
    ],
    ['a domain that accepts no mail', '556 5.1.10 Recipient address has null MX', 'domain_unknown'],
  ])('when a bounce is %s, then it is invalid_address (%s)', (_what, text, reason) => {
    expect(classifyBounce({ type: 'transient', diagnostic: text })).toMatchObject({
      category: 'invalid_address',
      reason,
    });
  });

  it.each([
    [
      'Postfix lost the connection during the greeting',
      'lost connection with mx.example.net[192.0.2.25] while performing the HELO handshake',
      'network_error',
    ],
    [
      'Postfix timed out after the data',
      'conversation with mx.example.net[192.0.2.25] timed out while sending end of data -- message may be sent more than once',
      'network_error',
    ],
    [
      'Exim gave up on every host of the domain',
      'all hosts have been failing for a long time and were last tried after this message arrived',
      'expired',
    ],
  ])(
    'when the sending server reports %s, then it is delivery_failure (%s): the stage it names is no refusal',
    (_what, text, reason) => {
      expect(permanent(text, '5.0.0')).toMatchObject({ category: 'delivery_failure', reason });
    },
  );

  it('when Postfix has suspended delivery to a destination, then the reason it gives decides, not the word "suspended"', () => {
    expect(
      permanent('delivery temporarily suspended: connect to mx.example.net[192.0.2.25]: Connection refused', '4.4.1'),
    ).toMatchObject({ category: 'delivery_failure', reason: 'network_error' });
    expect(permanent('550 5.2.1 This account has been suspended')).toMatchObject({
      category: 'mailbox_unavailable',
      reason: 'mailbox_disabled',
    });
  });

  it('when a mailbox exceeds its allowed size, then it is a full mailbox, not a message too large', () => {
    expect(permanent('User mailbox exceeds allowed size')).toMatchObject({
      category: 'mailbox_unavailable',
      reason: 'mailbox_full',
    });
  });

  it('when a full mailbox is labelled permanent, then it is mailbox_unavailable whatever the label', () => {
    expect(permanent('452 4.2.2 The email account that you tried to reach is over quota.')).toMatchObject({
      category: 'mailbox_unavailable',
      reason: 'mailbox_full',
    });
  });

  it('when the text says nothing, then the enhanced status decides by its subject and detail, whatever its class', () => {
    expect(classifyBounce({ type: 'permanent', status: '5.1.1' })).toEqual({
      category: 'invalid_address',
      reason: 'user_unknown',
      rule: 'status:X.1.1',
    });
    expect(classifyBounce({ type: 'permanent', status: '4.2.2' })).toMatchObject({ reason: 'mailbox_full' });
    expect(classifyBounce({ type: 'permanent', diagnostic: 'smtp; 554 5.7.1 go away' })).toMatchObject({
      category: 'sender_blocked',
      rule: 'status:X.7.1',
    });
  });

  it('when neither the text nor the code decides, then the bounce is unknown whatever its label, and a permanent label is kept as its reason', () => {
    expect(classifyBounce({ type: 'permanent', status: '5.0.0', diagnostic: 'no' })).toEqual({
      category: 'unknown',
      reason: 'label_permanent',
      rule: 'label:permanent',
    });
    expect(classifyBounce({ type: 'HardBounce', reply_code: 550 })).toEqual({
      category: 'unknown',
      reason: 'label_permanent',
      rule: 'label:permanent',
    });
    for (const type of ['transient', 'undetermined', 'Undetermined', undefined]) {
      expect(classifyBounce({ type, reply_code: 550 })).toEqual({
        category: 'unknown',
        reason: 'unclassified',
        rule: 'none',
      });
    }
    expect(classifyBounce({})).toMatchObject({ category: 'unknown' });
  });

  it('when a bounce labelled permanent is unknown, then the default actions count it toward the threshold and never suppress it at once', () => {
    const { category } = classifyBounce({ type: 'permanent', status: '5.0.0', diagnostic: 'smtp; 550 5.0.0' });
    expect(category).toBe('unknown');
    expect(DEFAULT_BOUNCE_ACTIONS[category]).toBe('count');
  });

  it('when the provider’s finer word is all there is, then it decides before the label', () => {
    expect(classifyBounce({ type: 'permanent', sub_type: 'Reputation', provider: 'sendgrid' })).toMatchObject({
      category: 'sender_blocked',
      reason: 'bad_reputation',
    });
    expect(classifyBounce({ type: 'undetermined', sub_type: 'DMARCPolicy', provider: 'postmark' })).toMatchObject({
      category: 'sender_blocked',
      reason: 'authentication',
    });
    expect(classifyBounce({ type: 'permanent', sub_type: 'NoEmail', provider: 'ses' })).toMatchObject({
      category: 'invalid_address',
    });
  });

  it('when RFC 5321’s "mailbox unavailable" comes with a permanent class, then it is a mailbox not found; with a transient one, unavailable for now', () => {
    expect(permanent('550 Requested action not taken: mailbox unavailable')).toMatchObject({ reason: 'user_unknown' });
    expect(classifyBounce({ diagnostic: '450 Requested action not taken: mailbox unavailable' })).toMatchObject({
      category: 'mailbox_unavailable',
    });
  });
});

describe('echoes and replies', () => {
  it.each(['Suppressed', 'OnAccountSuppressionList', 'suppress-bounce', 'suppress-complaint'])(
    'when the provider refused because of its own list (%s), then it is an echo, whatever text it quotes',
    (subType) => {
      expect(
        classifyBounce({
          type: 'permanent',
          sub_type: subType,
          diagnostic: '550 5.1.1 user unknown (history of bouncing)',
        }),
      ).toMatchObject({ category: 'sender_blocked', reason: 'provider_suppressed' });
    },
  );

  it('when the bounce is an out-of-office reply, then it is an auto_reply', () => {
    expect(
      classifyBounce({ diagnostic: 'I am out of the office until Monday with limited access to email.' }),
    ).toMatchObject({
      category: 'auto_reply',
      reason: 'out_of_office',
    });
  });
});

describe('reading the words', () => {
  it('when a host name holds a word of a rule, then the host name is one word and matches nothing', () => {
    expect(words('host relay.example.com[192.0.2.1] said: 550 5.1.1 <x@y.example>: User unknown')).toEqual([
      'host',
      '.relay.example.com',
      '192',
      '0',
      '2',
      '1',
      'said',
      '550',
      '5',
      '1',
      '1',
      '@',
      'user',
      'unknown',
    ]);
    expect(permanent('host relay.example.com[192.0.2.1] said: 550 5.1.1 <x@y.example>: User unknown')).toMatchObject({
      reason: 'user_unknown',
    });
  });

  it('when a phrase is negated, then it does not count', () => {
    expect(permanent('550 5.1.1 jane is not listed in the directory')).toMatchObject({ category: 'invalid_address' });
    expect(classifyBounce({ diagnostic: 'this is not spam' })).toMatchObject({ category: 'unknown' });
  });
});

describe('the classifier’s contract', () => {
  it('when any evidence at all comes in, then it answers a category, a reason of that category and a rule, and never throws', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc
        .array(
          fc.constantFrom('user', 'unknown', 'blocked', 'using', 'not', '5.1.1', '550', '@', '.', ' ', 'spam', 'x.y'),
          {
            maxLength: 200,
          },
        )
        .map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            status: fc.option(fc.string()),
            reply_code: fc.option(fc.oneof(fc.string(), fc.integer())),
            diagnostic: fc.option(text),
            type: fc.option(fc.string()),
            sub_type: fc.option(fc.string()),
          },
          { requiredKeys: [] },
        ),
        (evidence) => {
          const result = classifyBounce(evidence);
          expect(BOUNCE_CATEGORIES).toContain(result.category);
          expect(BOUNCE_REASONS[result.reason]).toBe(result.category);
          expect(result.rule.length).toBeGreaterThan(0);
          expect(classifyBounce(evidence)).toEqual(result);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('when a sub-type, status or reply code names a property every object has, then it decides nothing', () => {
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(classifyBounce({ sub_type: key, status: key, reply_code: key })).toEqual({
        category: 'unknown',
        reason: 'unclassified',
        rule: 'none',
      });
    }
  });

  it('when the tables are read, then the version names them', () => {
    expect(CLASSIFIER_VERSION).toMatch(/^1\.[0-9a-f]{8}$/);
  });
});

describe('which recipient bounced', () => {
  it('when a message had one recipient, then it is that one; when several, the one the text names; else none', () => {
    expect(bouncedRecipient(['A@example.com'], 'anything')).toBe('a@example.com');
    expect(bouncedRecipient(['a@example.com', 'b@example.com'], '550 5.1.1 <B@example.com>: User unknown')).toBe(
      'b@example.com',
    );
    expect(bouncedRecipient(['a@example.com', 'b@example.com'], '550 5.1.1 User unknown')).toBeNull();
    expect(bouncedRecipient(['a@example.com', 'b@example.com'], 'a@example.com and b@example.com')).toBeNull();
  });
});
