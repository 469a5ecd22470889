import { z } from 'zod';

/** A moment as every answer writes it: `Date.toISOString()`, so UTC to the millisecond. */
export const timestamp = z.iso
  .datetime({ precision: 3 })
  .meta({ description: 'ISO 8601 UTC with milliseconds.', example: '2026-03-14T09:26:53.589Z' });

/** A text field an answer may leave `null`, with what it holds. */
export const nullableText = (description: string) => z.string().nullable().meta({ description });

/** A count that cannot be negative, with what it counts. */
export const count = (description: string) => z.int().min(0).meta({ description });
