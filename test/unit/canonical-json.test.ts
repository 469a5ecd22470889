import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../api/http/canonical-json.js';

/** The same value with the keys of every object in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reversedKeys(inner)]),
  );
}

describe('canonicalJson', () => {
  it('when a body is written, then it is JSON of the same value with the keys sorted at every level', () => {
    expect(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ gone: undefined, kept: [undefined] })).toBe('{"kept":[null]}');
  });

  it('when any JSON value is written, then it parses back to that value, whatever the order of its keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reversedKeys(value))).toBe(text);
      }),
      { seed: 7, numRuns: 1000 },
    );
  });

  it('when a body is nested 100,000 levels deep, then it is written without overflowing the stack', () => {
    const depth = 100_000;
    const nested = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    expect(canonicalJson(nested)).toHaveLength(depth * 2);
    const objects = JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown;
    expect(canonicalJson(objects)).toHaveLength(depth * 6 + 1);
  });
});
