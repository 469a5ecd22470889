import { describe, expect, it } from 'vitest';
import { FeedVerificationError } from '../../src/feeds/feed-errors.js';
import { verifyMailgun } from '../../src/feeds/providers/mailgun/signature.js';
import { newPostmarkCredentials, verifyPostmark } from '../../src/feeds/providers/postmark/credentials.js';
import { verifyResend } from '../../src/feeds/providers/resend/signature.js';
import { verifySendGrid } from '../../src/feeds/providers/sendgrid/signature.js';
import { basicAuth, mailgunBody, resendSigner, sendGridSigner } from '../support/feed-signers.js';

const body = Buffer.from('[{"email":"jane@example.com","event":"bounce"}]');
const now = Date.now();
const seconds = Math.floor(now / 1000);

function refusal(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    if (error instanceof FeedVerificationError) return error.reason;
    throw error;
  }
  throw new Error('the request was accepted');
}

describe('SendGrid signatures', () => {
  const signer = sendGridSigner();
  const verification = { public_key: signer.publicKey };

  it('when the body is signed with the feed’s key and a current timestamp, then it is accepted', () => {
    const headers = signer.headers(body.toString());
    expect(() => verifySendGrid(verification, { headers: lower(headers), body }, now)).not.toThrow();
  });

  it('when one byte of the body changed after signing, then it is refused for its signature', () => {
    const headers = lower(signer.headers(body.toString()));
    const changed = Buffer.from(body.toString().replace('bounce', 'bounco'));
    expect(refusal(() => verifySendGrid(verification, { headers, body: changed }, now))).toBe('signature');
  });

  it('when another key signed it, then it is refused for its signature', () => {
    const headers = lower(sendGridSigner().headers(body.toString()));
    expect(refusal(() => verifySendGrid(verification, { headers, body }, now))).toBe('signature');
  });

  it('when the signed timestamp is six minutes old, then it is refused for its timestamp', () => {
    const headers = lower(signer.headers(body.toString(), seconds - 360));
    expect(refusal(() => verifySendGrid(verification, { headers, body }, now))).toBe('timestamp');
  });

  it('when the key was given as PEM, then it verifies the same way', () => {
    const pem = `-----BEGIN PUBLIC KEY-----\n${signer.publicKey.match(/.{1,64}/g)?.join('\n')}\n-----END PUBLIC KEY-----\n`;
    const headers = lower(signer.headers(body.toString()));
    expect(() => verifySendGrid({ public_key: pem }, { headers, body }, now)).not.toThrow();
  });

  it('when the headers are missing, then it is refused for its signature', () => {
    expect(refusal(() => verifySendGrid(verification, { headers: {}, body }, now))).toBe('signature');
  });
});

describe('Mailgun signatures', () => {
  const key = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';

  it('when timestamp and token are signed with the feed’s key, then the token is returned', () => {
    const signed = mailgunBody(key, { event: 'failed' }, { token: 'a'.repeat(50), timestamp: seconds });
    expect(verifyMailgun({ signing_key: key }, { headers: {}, body: Buffer.from(signed) }, now)).toBe('a'.repeat(50));
  });

  it('when another key signed them, then the request is refused for its signature', () => {
    const signed = Buffer.from(mailgunBody('another-key', { event: 'failed' }));
    expect(refusal(() => verifyMailgun({ signing_key: key }, { headers: {}, body: signed }, now))).toBe('signature');
  });

  it('when the timestamp is six minutes ahead, then it is refused for its timestamp', () => {
    const signed = Buffer.from(mailgunBody(key, { event: 'failed' }, { timestamp: seconds + 360 }));
    expect(refusal(() => verifyMailgun({ signing_key: key }, { headers: {}, body: signed }, now))).toBe('timestamp');
  });

  it('when the body has no signature object or is not JSON, then it is refused for its signature', () => {
    const unsigned = Buffer.from(JSON.stringify({ 'event-data': { event: 'failed' } }));
    expect(refusal(() => verifyMailgun({ signing_key: key }, { headers: {}, body: unsigned }, now))).toBe('signature');
    const text = Buffer.from('event=failed');
    expect(refusal(() => verifyMailgun({ signing_key: key }, { headers: {}, body: text }, now))).toBe('signature');
  });
});

describe('Postmark credentials', () => {
  const { username, password, stored } = newPostmarkCredentials();

  it('when the feed’s generated credentials are sent, then they are accepted, and only a digest of the password is stored', () => {
    expect(() =>
      verifyPostmark(stored, { headers: { authorization: basicAuth(username, password) }, body }),
    ).not.toThrow();
    expect(JSON.stringify(stored)).not.toContain(password);
  });

  it('when the password, the user name or the whole header is wrong, then the request is refused', () => {
    for (const authorization of [basicAuth(username, `${password}x`), basicAuth('postmark', password), 'Bearer x']) {
      expect(refusal(() => verifyPostmark(stored, { headers: { authorization }, body }))).toBe('credentials');
    }
    expect(refusal(() => verifyPostmark(stored, { headers: {}, body }))).toBe('credentials');
  });
});

describe('Resend (Svix) signatures', () => {
  const signer = resendSigner();
  const verification = { signing_secret: signer.secret };

  it('when signed with svix-* headers, then it is accepted and the message id returned', () => {
    const headers = lower(signer.headers(body.toString(), { id: 'msg_1' }));
    expect(verifyResend(verification, { headers, body })).toBe('msg_1');
  });

  it('when signed with webhook-* headers, then it is accepted the same way', () => {
    const headers = lower(signer.headers(body.toString(), { id: 'msg_2', names: 'webhook' }));
    expect(verifyResend(verification, { headers, body })).toBe('msg_2');
  });

  it('when another secret signed it, then it is refused for its signature', () => {
    const headers = lower(resendSigner().headers(body.toString()));
    expect(refusal(() => verifyResend(verification, { headers, body }))).toBe('signature');
  });

  it('when its timestamp is six minutes old, then it is refused for its timestamp', () => {
    const headers = lower(signer.headers(body.toString(), { timestamp: new Date(now - 360_000) }));
    expect(refusal(() => verifyResend(verification, { headers, body }))).toBe('timestamp');
  });
});

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
