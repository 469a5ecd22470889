import { z } from 'zod';

/** The parsers of settings' values that several groups of settings share. */

// Plain decimal digits only: Number() would read "  " as 0 and "0x50" as 80.
export const wholeNumber = z
  .string()
  .trim()
  .regex(/^[0-9]+$/, { error: 'must be a whole number' })
  .transform(Number);
export const port = wholeNumber.pipe(z.number().max(65535, { error: 'must be a port number (0-65535)' }));
export const positiveInt = wholeNumber.pipe(z.number().min(1, { error: 'must be at least 1' }));
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// A host name of at least two labels, lower-case, as addresses' domains are written.
export const DOMAIN_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** The items of a comma list, trimmed, without empty ones. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
