import { describe, expect, it } from 'vitest';
import { searchFilters } from '../../console/src/search.js';

describe("the console's search box", () => {
  it.each([
    ['', {}],
    ['   ', {}],
    ['jane@example.com', { email: 'jane@example.com' }],
    ['  Jane@Example.com ', { email: 'Jane@Example.com' }],
    ['jane*', { email: 'jane*' }],
    ['jane@exa*', { email: 'jane@exa*' }],
    ['jane', { email: 'jane*' }],
    ['@example.com', { domain: 'example.com' }],
    ['example.com', { domain: 'example.com' }],
    ['mail.example.co.uk', { domain: 'mail.example.co.uk' }],
  ])('when "%s" is searched, then the list is asked for %o', (text, filters) => {
    expect(searchFilters(text)).toEqual(filters);
  });
});
