import { randomBytes } from 'node:crypto';
import { base32nopad } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { makeReturnPath } from '../../src/client/return-path.js';
import { findReturnPathIn, returnPathFor, returnPathToken } from '../../src/mail/return-paths/address.js';
import {
  messageReference,
  readReturnPathToken,
  signedWith,
  writeReturnPathToken,
  type ReturnPathFields,
} from '../../src/mail/return-paths/token.js';

/** The worked example of docs/mail.md. */
const EXAMPLE = {
  secret: { id: '2c8d9a41', secret: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8' },
  options: {
    recipient: 'jane.doe@example.com',
    scope: 'newsletter',
    messageId: '<0f1e2d3c@mail.example.com>',
    localPart: 'bounces',
    domain: 'bounces.example.com',
  },
  signed: '012c8d9a418a6e6577736c657474657208870eebf72d6a616e652e646f65406578616d706c652e636f6d',
  tag: 'd6fc2214228b7af894b6',
  returnPath:
    'bounces+aewi3gsbrjxgk53tnrsxi5dfoieiodxl64wwuylomuxgi33fibsxqylnobwgkltdn5w5n7bccqriw6xyss3a@bounces.example.com',
};

const PLACE = { bounceDomains: ['bounces.example.com'], localPart: 'bounces' };

function newSecret() {
  return { id: randomBytes(4), secret: randomBytes(32) };
}

const fields = (secretId: Uint8Array, overrides: Partial<ReturnPathFields> = {}): ReturnPathFields => ({
  secretId,
  scope: 'newsletter',
  messageRef: messageReference('<a1b2@mail.example.com>'),
  recipient: 'reader@example.com',
  ...overrides,
});

/** Whether `token` reads as a token signed with `secret`: what verification asks of it before the database. */
function verifiesWith(token: string, secret: Uint8Array): boolean {
  const read = readReturnPathToken(token);
  return read !== null && signedWith(read, secret);
}

describe('a return path token', () => {
  it('when a token is written and read back, then every field comes back and its own secret verifies it', () => {
    const { id, secret } = newSecret();
    for (const written of [
      fields(id),
      fields(id, { scope: null }),
      fields(id, { messageRef: null }),
      fields(id, { scope: 'a'.repeat(64), recipient: `${'r'.repeat(64)}@${'d'.repeat(60)}.example.com` }),
    ]) {
      const token = writeReturnPathToken(secret, written);
      const read = readReturnPathToken(token);
      const bytesOf = (value: Uint8Array | null | undefined) => (value ? Buffer.from(value).toString('hex') : value);

      expect(token).toMatch(/^[a-z2-7]+$/);
      expect(read?.fields.scope).toBe(written.scope);
      expect(read?.fields.recipient).toBe(written.recipient);
      expect(bytesOf(read?.fields.messageRef)).toBe(bytesOf(written.messageRef));
      expect(bytesOf(read?.fields.secretId)).toBe(bytesOf(id));
      expect(verifiesWith(token, secret)).toBe(true);
    }
  });

  it('when any single byte of a token is altered, to any of several values, then it no longer verifies', () => {
    const { id, secret } = newSecret();
    const bytes = Buffer.from(base32nopad.decode(writeReturnPathToken(secret, fields(id)).toUpperCase()));
    let tried = 0;
    for (let at = 0; at < bytes.length; at++) {
      for (const flip of [0x01, 0x20, 0x80, 0xff]) {
        const altered = Buffer.from(bytes);
        altered[at] = (altered[at] as number) ^ flip;
        expect(verifiesWith(base32nopad.encode(altered).toLowerCase(), secret), `byte ${at} ^ ${flip}`).toBe(false);
        tried++;
      }
    }
    expect(tried).toBe(bytes.length * 4);
  });

  it('when any single character of a token is replaced, or one is dropped or added, then it no longer verifies', () => {
    const { id, secret } = newSecret();
    const token = writeReturnPathToken(secret, fields(id));
    const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
    for (let at = 0; at < token.length; at++) {
      const other = alphabet[(alphabet.indexOf(token[at] as string) + 1) % alphabet.length] as string;
      expect(verifiesWith(token.slice(0, at) + other + token.slice(at + 1), secret), `character ${at}`).toBe(false);
      expect(verifiesWith(token.slice(0, at) + token.slice(at + 1), secret), `without character ${at}`).toBe(false);
    }
    expect(verifiesWith(`${token}a`, secret)).toBe(false);
    expect(verifiesWith(`a${token}`, secret)).toBe(false);
  });

  it('when a token is checked with another secret, even under the same secret id, then it does not verify', () => {
    const mine = newSecret();
    const theirs = newSecret();
    const token = writeReturnPathToken(mine.secret, fields(mine.id));
    // Someone holding another account's secret, writing a token that names this account's secret id.
    const forged = writeReturnPathToken(theirs.secret, fields(mine.id));

    expect(verifiesWith(token, theirs.secret)).toBe(false);
    expect(verifiesWith(forged, mine.secret)).toBe(false);
  });

  it('when a mail system changes the case of the token, then it reads and verifies the same', () => {
    const { id, secret } = newSecret();
    const token = writeReturnPathToken(secret, fields(id));
    const mixed = [...token].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');

    for (const spelling of [token.toUpperCase(), mixed]) {
      expect(verifiesWith(spelling, secret)).toBe(true);
      expect(readReturnPathToken(spelling)?.fields.recipient).toBe('reader@example.com');
    }
  });

  it('when the token is not base32 of a version-1 token, then it is not read', () => {
    const { id, secret } = newSecret();
    const token = writeReturnPathToken(secret, fields(id));
    const bytes = Buffer.from(base32nopad.decode(token.toUpperCase()));
    const version2 = Buffer.from(bytes);
    version2[0] = 2;

    for (const text of ['', 'abc', `${token.slice(0, -1)}1`, `${token}=`, base32nopad.encode(version2).toLowerCase()]) {
      expect(readReturnPathToken(text), text).toBeNull();
    }
    // A scope longer than what follows the header leaves no room for a recipient.
    const scopeTooLong = Buffer.from(bytes);
    scopeTooLong[5] = 0x7f;
    expect(readReturnPathToken(base32nopad.encode(scopeTooLong).toLowerCase())).toBeNull();
  });

  it('when a Message-ID is given with or without its angle brackets and spaces around, then its reference is the same', () => {
    const bare = messageReference('0f1e2d3c@mail.example.com');
    expect(messageReference('<0f1e2d3c@mail.example.com>')).toEqual(bare);
    expect(messageReference('  <0f1e2d3c@mail.example.com> ')).toEqual(bare);
    expect(bare).toHaveLength(6);
    expect(messageReference('<0f1e2d3d@mail.example.com>')).not.toEqual(bare);
  });
});

describe('the worked example of docs/mail.md', () => {
  it('when the documented secret makes the documented return path, then every byte is as written there', () => {
    const made = makeReturnPath(EXAMPLE.secret, EXAMPLE.options);
    const token = returnPathToken(made, PLACE) as string;
    const read = readReturnPathToken(token);

    expect(made).toBe(EXAMPLE.returnPath);
    expect(read?.signed.toString('hex')).toBe(EXAMPLE.signed);
    expect(read?.tag.toString('hex')).toBe(EXAMPLE.tag);
    expect(messageReference(EXAMPLE.options.messageId).toString('hex')).toBe('08870eebf72d');
  });

  it('when the client is given the secret as bytes, or the recipient in capitals, then it makes the same return path', () => {
    const bytes = { id: EXAMPLE.secret.id.toUpperCase(), secret: Buffer.from(EXAMPLE.secret.secret, 'base64url') };
    expect(makeReturnPath(bytes, { ...EXAMPLE.options, recipient: ' Jane.Doe@Example.com ' })).toBe(EXAMPLE.returnPath);
  });

  it('when the client is given what no return path can be made of, then it throws and says what', () => {
    const make = (secret: { id: string; secret: string }, options: Partial<typeof EXAMPLE.options>) => () =>
      makeReturnPath(secret, { ...EXAMPLE.options, ...options });

    expect(make(EXAMPLE.secret, { recipient: 'not-an-address' })).toThrow(/recipient is not a valid email address/);
    expect(make(EXAMPLE.secret, { scope: 'News Letter' })).toThrow(/scope/);
    expect(make({ ...EXAMPLE.secret, id: 'xyz' }, {})).toThrow(/8 hex digits/);
    expect(make({ ...EXAMPLE.secret, secret: 'c2hvcnQ' }, {})).toThrow(/32 bytes in base64url/);
  });
});

describe('finding a return path among a report’s addresses', () => {
  const { id, secret } = newSecret();
  const path = returnPathFor(
    { id, secret },
    { recipient: 'reader@example.com', ...PLACE, domain: 'bounces.example.com' },
  );

  it('when a report names several addresses, then the first at a bounce domain with a +token is the candidate', () => {
    const found = findReturnPathIn(
      [
        'postmaster@example.org',
        'bounces@bounces.example.com',
        `<${path.toUpperCase()}>`,
        'bounces+other@bounces.example.com',
      ],
      ['Bounces.Example.com'],
    );
    expect(found?.toLowerCase()).toBe(path);
  });

  it('when no address is at a bounce domain with a +token, then there is none', () => {
    expect(
      findReturnPathIn(
        ['bounces@bounces.example.com', path.replace('example.com', 'example.org')],
        ['bounces.example.com'],
      ),
    ).toBeNull();
    expect(findReturnPathIn([], ['bounces.example.com'])).toBeNull();
  });

  it('when the local part before the + is not the configured one, then the address is not a return path of ours', () => {
    expect(returnPathToken(path, PLACE)).not.toBeNull();
    expect(returnPathToken(path.replace('bounces+', 'BOUNCES+'), PLACE)).not.toBeNull();
    expect(returnPathToken(path.replace('bounces+', 'other+'), PLACE)).toBeNull();
    expect(returnPathToken(path, { ...PLACE, bounceDomains: ['bounces.example.net'] })).toBeNull();
  });
});
