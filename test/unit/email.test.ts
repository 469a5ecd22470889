import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partitionEmails } from '../../src/domain/email-batch.js';
import { MAX_EMAIL_LENGTH, emailProblem, isStoredForm, normalizeEmail } from '../../src/domain/email.js';

const INVALID = 'is not a valid email address';

/** A valid address of exactly `length` characters (at least 70), with a 64-character local part. */
function addressOfLength(length: number): string {
  const local = 'a'.repeat(64);
  let domainBody = length - local.length - 1 - '.com'.length;
  const labels: string[] = [];
  while (domainBody > 0) {
    // A label of at most 63 characters, plus the dot before the next one.
    const size = Math.min(63, domainBody);
    labels.push('b'.repeat(size));
    domainBody -= size + 1;
  }
  const address = `${local}@${labels.join('.')}.com`;
  expect(address).toHaveLength(length);
  return address;
}

describe('normalizeEmail', () => {
  it('when an address has surrounding whitespace and capitals, then it is trimmed and lower-cased', () => {
    expect(normalizeEmail('  John.Doe+Tag@Example.COM \t\n')).toBe('john.doe+tag@example.com');
  });

  it('when an address is already normal, then it is unchanged', () => {
    expect(normalizeEmail('first.last@example.com')).toBe('first.last@example.com');
  });

  it('when the inside of an address has spaces, then they are kept for validation to refuse', () => {
    expect(normalizeEmail(' first last@example.com ')).toBe('first last@example.com');
  });

  it.each([
    ['a Kelvin sign', '\u212Aate@example.com'],
    ['a dotted capital I', '\u0130nfo@example.com'],
    ['a non-ASCII capital in the domain', 'kate@\u212Aexample.com'],
  ])('when an address has %s, then it is not turned into another address, and it is refused', (_what, raw) => {
    const normal = normalizeEmail(raw);
    expect(normal).toBe(raw);
    expect(emailProblem(normal)).toBe(INVALID);
  });

  it('when any string is normalised, then an accepted result is ASCII and what lower-casing the given ASCII gives', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'Kk\u212A\u0130iIaA@.-_ \u00A0e\u017Fs'.split('')), maxLength: 24 }),
        (raw) => {
          const normal = normalizeEmail(`${raw}@Example.com`);
          if (emailProblem(normal) !== null) return;
          expect(normal).toMatch(/^[\x21-\x7e]+$/);
          expect(normal).toBe(`${raw}@Example.com`.trim().toLowerCase());
        },
      ),
      { seed: 11, numRuns: 2000 },
    );
  });
});

describe('emailProblem', () => {
  it.each([
    'a@example.com',
    'first+tag@example.com',
    'first.last@example.com',
    'first.middle.last@mail.sub.example.co.uk',
    "o'brien@example.com",
    'user_name-1@my-domain.example',
    'user@123.example.com',
    'user@xn--bcher-kva.example',
  ])('when the address is %s, then it is accepted', (email) => {
    expect(emailProblem(email)).toBeNull();
  });

  it('when an address is given in capitals with spaces around it, then its normal form is accepted', () => {
    expect(emailProblem(normalizeEmail('  First+Tag@Example.COM '))).toBeNull();
  });

  it('when the address is empty, then it is refused as empty', () => {
    expect(emailProblem('')).toBe('is empty');
  });

  it.each([
    ['no @', 'no-at-sign.example.com'],
    ['two @', 'a@b@example.com'],
    ['an empty local part', '@example.com'],
    ['an empty domain', 'user@'],
    ['a space inside the local part', 'first last@example.com'],
    ['a space inside the domain', 'user@exa mple.com'],
    ['no dot in the domain', 'user@localhost'],
    ['a label with a leading hyphen', 'user@-example.com'],
    ['a label with a trailing hyphen', 'user@example-.com'],
    ['a last label with a leading hyphen', 'user@example.-com'],
    ['a last label with a trailing hyphen', 'user@example.com-'],
    ['an empty label', 'user@example..com'],
    ['a leading dot in the domain', 'user@.example.com'],
    ['a trailing dot in the domain', 'user@example.com.'],
    ['a domain label over 63 characters', `user@${'b'.repeat(64)}.com`],
    ['angle brackets', '<user@example.com>'],
    ['a display name', 'User <user@example.com>'],
  ])('when the address has %s, then it is refused as not valid', (_, email) => {
    expect(emailProblem(email)).toBe(INVALID);
  });

  it('when the address is exactly 254 characters, then it is accepted', () => {
    expect(MAX_EMAIL_LENGTH).toBe(254);
    expect(emailProblem(addressOfLength(254))).toBeNull();
  });

  it('when the address is 255 characters, then it is refused as too long', () => {
    expect(emailProblem(addressOfLength(255))).toBe('is longer than 254 characters');
  });

  it('when the local part is exactly 64 characters, then it is accepted', () => {
    expect(emailProblem(`${'a'.repeat(64)}@example.com`)).toBeNull();
  });

  it('when the local part is 65 characters, then it is refused naming the local part', () => {
    expect(emailProblem(`${'a'.repeat(65)}@example.com`)).toBe('has a local part longer than 64 characters');
  });
});

describe('partitionEmails', () => {
  it('when addresses repeat in other forms, then each is kept once, normalised, in first-seen order', () => {
    const result = partitionEmails([
      'B@example.com',
      ' a@example.com',
      'b@EXAMPLE.COM ',
      'A@Example.com',
      'c@example.com',
    ]);
    expect(result).toEqual({ valid: ['b@example.com', 'a@example.com', 'c@example.com'], invalid: [] });
  });

  it('when some items are invalid, then each is reported with its index, raw value and reason', () => {
    const result = partitionEmails([
      'ok@example.com',
      '  NOT AN ADDRESS ',
      '',
      'second@example.com',
      '   ',
      'a@b@example.com',
    ]);
    expect(result.valid).toEqual(['ok@example.com', 'second@example.com']);
    expect(result.invalid).toEqual([
      { index: 1, value: '  NOT AN ADDRESS ', reason: INVALID },
      { index: 2, value: '', reason: 'is empty' },
      { index: 4, value: '   ', reason: 'is empty' },
      { index: 5, value: 'a@b@example.com', reason: INVALID },
    ]);
  });

  it('when an invalid item repeats, then every occurrence is reported at its own index', () => {
    expect(partitionEmails(['bad', 'ok@example.com', 'bad']).invalid.map((item) => item.index)).toEqual([0, 2]);
  });

  it('when an item is too long, then its reason says so', () => {
    const long = addressOfLength(255);
    expect(partitionEmails(['ok@example.com', long]).invalid).toEqual([
      { index: 1, value: long, reason: 'is longer than 254 characters' },
    ]);
  });

  it('when the input is empty, then both lists are empty', () => {
    expect(partitionEmails([])).toEqual({ valid: [], invalid: [] });
  });
});

describe('isStoredForm', () => {
  const storedAndAcceptable = (raw: string) => normalizeEmail(raw) === raw && emailProblem(raw) === null;

  it('when any string is tested, then it is in stored form exactly when normalising leaves it and it is acceptable', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: fc.constantFrom(...'aZ9.-_+@ \u00E9\u212A'.split('')), maxLength: 30 }),
          // Every character class of the grammar, and labels about their longest.
          fc
            .tuple(
              fc.string({ unit: fc.constantFrom(...'.!#$%&\'*+/=?^_`{|}~-az09"(),:;<>[\\]'.split('')), maxLength: 70 }),
              fc.array(fc.string({ unit: fc.constantFrom(...'az09-_.A'.split('')), maxLength: 66 }), { maxLength: 4 }),
              fc.constantFrom('@', '@@', ''),
            )
            .map(([local, labels, at]) => `${local}${at}${labels.join('.')}`),
          fc.emailAddress(),
          fc.emailAddress().map((address) => address.toUpperCase()),
          fc.emailAddress().map((address) => ` ${address}`),
        ),
        (raw) => {
          expect(isStoredForm(raw)).toBe(storedAndAcceptable(raw));
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('when the address is at its limits of length, then the stored form agrees with the full checks', () => {
    for (const raw of [
      addressOfLength(254),
      addressOfLength(255),
      `${'a'.repeat(64)}@example.com`,
      `${'a'.repeat(65)}@example.com`,
      `x@${'b'.repeat(63)}.com`,
      `x@${'b'.repeat(64)}.com`,
    ]) {
      expect(isStoredForm(raw), raw).toBe(storedAndAcceptable(raw));
    }
    expect(isStoredForm(addressOfLength(254))).toBe(true);
    expect(isStoredForm(`${'a'.repeat(65)}@example.com`)).toBe(false);
  });
});
