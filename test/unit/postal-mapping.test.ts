import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FeedVerificationError } from '../../src/feeds/feed-errors.js';
import type { MappingContext } from '../../src/feeds/feed-mapping.js';
import { mapPostal } from '../../src/feeds/providers/postal/mapping.js';
import { postalPublicKey, verifyPostal } from '../../src/feeds/providers/postal/signature.js';
import { feedFixture, mappingChecks, UUID_V5 } from '../support/feed-mapping-checks.js';

const CONTEXT: MappingContext = {
  accountId: '0190a6e8-5f3c-7a3b-8c1d-2e4f6a8b0c1d',
  emailIdTag: 'email_id',
  scopeFrom: null,
};

function fixture(name: string): string {
  return feedFixture('postal', name);
}

function webhook(name: string): Record<string, any> {
  return JSON.parse(fixture(name)) as Record<string, any>;
}

const { mapped, refusal } = mappingChecks(mapPostal, CONTEXT);

describe('Postal delivery events', () => {
  it('when MessageDeliveryFailed carries the server’s answer, then it is a permanent bounce read from that answer', () => {
    expect(mapped(fixture('message-delivery-failed.json'))).toEqual({
      ignored: [],
      events: [
        {
          account_id: CONTEXT.accountId,
          event_id: 'postal:7f0c2e5a-9d43-4b8e-a1f6-5c3b9e2d7a48:test@example.com',
          type: 'bounce',
          email: 'test@example.com',
          source_id: expect.stringMatching(UUID_V5),
          occurred_at: '2016-10-31T20:19:37.129Z',
          provider_message_id: '5817a64332f44_4ec93ff59e79d154565eb@app34.mail',
          scope: undefined,
          bounce: {
            type: 'permanent',
            sub_type: 'HardFail',
            diagnostic: expect.stringMatching(/^550-5\.1\.1 The email account that you tried to reach does not exist/),
            provider: 'postal',
          },
        },
      ],
    });
  });

  it('when Postal failed a message without a server’s answer, then the label is undetermined and Postal’s details are the text', () => {
    const failed = webhook('message-delivery-failed.json');
    const details = 'Maximum number of delivery attempts (18) has been reached.';
    failed.payload = { ...failed.payload, output: '', details };
    const [event] = mapped(JSON.stringify(failed)).events;
    expect(event?.bounce).toEqual({
      type: 'undetermined',
      sub_type: 'HardFail',
      diagnostic: details,
      provider: 'postal',
    });
  });

  it('when MessageDelayed arrives, then it is a transient bounce whose id is its message’s, whatever the webhook', () => {
    const first = mapped(fixture('message-delayed.json')).events[0];
    const again = mapped(JSON.stringify({ ...webhook('message-delayed.json'), uuid: 'another' })).events[0];
    expect(first).toMatchObject({ email: 'full@example.com', bounce: { type: 'transient', sub_type: 'SoftFail' } });
    expect(again?.event_id).toBe(first?.event_id);
  });

  it('when MessageBounced arrives, then the original message’s recipient has an undetermined bounce at the bounce’s time', () => {
    const [event] = mapped(fixture('message-bounced.json')).events;
    expect(event).toMatchObject({
      email: 'test@example.com',
      occurred_at: '2016-10-31T20:19:39.129Z',
      provider_message_id: '5817a64332f44_4ec93ff59e79d154565eb@app34.mail',
      bounce: { type: 'undetermined', sub_type: 'Bounced', provider: 'postal' },
    });
  });

  it('when the feed reads the tag, then the message’s tag is the scope', () => {
    const [event] = mapped(fixture('message-delivery-failed.json'), { ...CONTEXT, scopeFrom: 'tag' }).events;
    expect(event?.scope).toBe('welcome');
  });

  it('when an event is about a message Postal received, or one Postal held or sent, then it is ignored by name', () => {
    const incoming = webhook('message-delivery-failed.json');
    incoming.payload.message.direction = 'incoming';
    expect(mapped(JSON.stringify(incoming)).ignored).toEqual(['MessageDeliveryFailed:incoming']);
    expect(mapped(fixture('message-held.json')).ignored).toEqual(['MessageHeld']);
    expect(mapped(fixture('message-sent.json')).ignored).toEqual(['MessageSent']);
  });

  it('when a delivery event has no recipient, or the body is no envelope, then it is refused naming the field', () => {
    const failed = webhook('message-delivery-failed.json');
    delete failed.payload.message.to;
    expect(refusal(JSON.stringify(failed))).toBe('Not a Postal webhook: `payload.message.to` is required.');
    expect(refusal('[]')).toBe('Not a Postal webhook: must be a JSON object.');
  });
});

describe('Postal signatures and keys', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const der = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const body = Buffer.from(fixture('message-delivery-failed.json'));
  const headers = (algorithm: 'sha256' | 'sha1', signed = body) => ({
    [algorithm === 'sha256' ? 'x-postal-signature-256' : 'x-postal-signature']: sign(
      algorithm,
      signed,
      privateKey,
    ).toString('base64'),
  });

  it('when the key is given as PEM, as the DKIM record Postal prints (quoted or not), as its p= value or as a JWK set, then it is the same key', () => {
    const jwks = JSON.stringify({ keys: [publicKey.export({ format: 'jwk' })] });
    for (const given of [
      pem,
      `v=DKIM1; t=s; h=sha256; p=${der};`,
      `"v=DKIM1; t=s; h=sha256; p=${der.slice(0, 100)}" "${der.slice(100)};"`,
      der,
      jwks,
    ]) {
      expect(postalPublicKey(given)?.equals(publicKey)).toBe(true);
    }
  });

  it('when the key is not an RSA public key, or is the private signing key itself, then it is not taken', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
    const secret = privateKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    for (const given of [
      '',
      'not a key',
      ec.export({ format: 'pem', type: 'spki' }).toString(),
      'v=DKIM1; p=;',
      secret,
    ]) {
      expect(postalPublicKey(given)).toBeNull();
    }
  });

  it('when the body is signed with SHA-256, or only with SHA-1, then it is accepted', () => {
    expect(() => verifyPostal({ public_key: pem }, { headers: headers('sha256'), body })).not.toThrow();
    expect(() => verifyPostal({ public_key: pem }, { headers: headers('sha1'), body })).not.toThrow();
  });

  it('when the SHA-256 signature is wrong, then a right SHA-1 one beside it does not save the request', () => {
    const request = { headers: { ...headers('sha1'), ...headers('sha256', Buffer.from('other')) }, body };
    expect(() => verifyPostal({ public_key: pem }, request)).toThrow(FeedVerificationError);
  });

  it('when there is no signature header, then it is refused for its signature', () => {
    expect(() => verifyPostal({ public_key: pem }, { headers: {}, body })).toThrow(
      new FeedVerificationError('signature', 'the X-Postal-Signature-256 (or X-Postal-Signature) header is required'),
    );
  });
});
