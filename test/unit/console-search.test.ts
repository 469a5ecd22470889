import { describe, expect, it } from 'vitest';
import { searchedAddress, searchFilters } from '../../console/src/search.js';

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

describe("the address whose history the console's search shows", () => {
  it.each([
    ['  Jane@Example.com ', 'jane@example.com'],
    ['jane*', null],
    ['jane@exa*', null],
    ['@example.com', null],
    ['example.com', null],
    ['jane', null],
    ['not an address@', null],
  ])('when "%s" is searched, then the history asked for is of %s', (text, address) => {
    expect(searchedAddress(text)).toBe(address);
  });
});
