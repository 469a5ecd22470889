import { describe, expect, it } from 'vitest';
import { PERMISSIONS, generateToken, hashToken } from '../../src/accounts/api-key-token.js';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

describe('generateToken', () => {
  it('when a token is made, then it is sl_ followed by at least 32 random bytes in base64url', () => {
    const token = generateToken();
    expect(token.startsWith('sl_')).toBe(true);
    const secret = token.slice('sl_'.length);
    expect(secret).toMatch(BASE64URL);
    const bytes = Buffer.from(secret, 'base64url');
    expect(bytes.length).toBeGreaterThanOrEqual(32);
    // Decoding and encoding again gives the same text: it is canonical base64url, without padding.
    expect(bytes.toString('base64url')).toBe(secret);
  });

  it('when many tokens are made, then no two are alike', () => {
    const tokens = Array.from({ length: 2000 }, () => generateToken());
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('when many tokens are made, then their bytes vary at every position (they are random, not counters)', () => {
    const secrets = Array.from({ length: 200 }, () => Buffer.from(generateToken().slice(3), 'base64url'));
    const length = secrets[0]!.length;
    for (let position = 0; position < length; position += 1) {
      const values = new Set(secrets.map((bytes) => bytes[position]));
      expect(values.size).toBeGreaterThan(1);
    }
  });
});

describe('hashToken', () => {
  it('when a token is hashed, then the result is its 32-byte SHA-256', () => {
    // SHA-256("abc") from FIPS 180-2.
    expect(hashToken('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken(generateToken())).toHaveLength(32);
  });

  it('when the same token is hashed twice, then the hashes are equal', () => {
    const token = generateToken();
    expect(hashToken(token).equals(hashToken(token))).toBe(true);
  });

  it('when two tokens differ, then their hashes differ', () => {
    const token = generateToken();
    const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(hashToken(token).equals(hashToken(other))).toBe(false);
  });
});

describe('PERMISSIONS', () => {
  it('when listed, then they are full_access and sending_access', () => {
    expect(PERMISSIONS).toEqual(['full_access', 'sending_access']);
  });
});
