import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  addBodySchema,
  batchAddBodySchema,
  batchRemoveBodySchema,
  listQuerySchema,
} from '../../api/suppressions/schemas.js';
import { parseInput } from '../../api/http/validation.js';
import { AppError } from '../../src/errors.js';

const ID = '01890a5d-ac96-774b-bcce-b302099a8057';
const OTHER_ID = '01890a5d-ac96-774b-bcce-b302099a8058';

/** The validation error that parsing this input throws. */
function refusal(schema: z.ZodType, input: unknown): AppError {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation_error');
    return error as AppError;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

const emails = (count: number): string[] => Array.from({ length: count }, (_, index) => `user${index}@example.com`);

describe('parseInput', () => {
  it('when input is refused, then the error is a 422 validation_error in the shape clients parse', () => {
    const error = refusal(listQuerySchema, { limit: '0' });
    expect(error.statusCode).toBe(422);
    expect(error.code).toBe('validation_error');
    expect(error.toJSON()).toEqual({ statusCode: 422, name: 'validation_error', message: error.message });
  });
});

describe('the list query', () => {
  it('when nothing is given, then limit defaults to 20 and no cursor or origin is set', () => {
    const query = parseInput(listQuerySchema, {});
    expect(query.limit).toBe(20);
    expect(query.after).toBeUndefined();
    expect(query.before).toBeUndefined();
    expect(query.origin).toBeUndefined();
  });

  it.each([
    ['1', 1],
    ['100', 100],
    ['42', 42],
    ['007', 7],
  ])('when limit is %j, then it is the number %d', (limit, expected) => {
    expect(parseInput(listQuerySchema, { limit }).limit).toBe(expected);
  });

  it.each(['0', '101', '1000', '-1', '1.5', 'ten', '', ' 5', '1e2'])(
    'when limit is %j, then the message names limit',
    (limit) => {
      expect(refusal(listQuerySchema, { limit }).message).toBe('`limit` must be a whole number from 1 to 100.');
    },
  );

  it('when limit is given twice, then it is refused as not a single number', () => {
    expect(refusal(listQuerySchema, { limit: ['1', '2'] }).message).toBe(
      '`limit` must be a single whole number from 1 to 100.',
    );
  });

  it('when the cursors are UUIDs in capitals, then they are lower-cased', () => {
    expect(parseInput(listQuerySchema, { after: ID.toUpperCase() }).after).toBe(ID);
    expect(parseInput(listQuerySchema, { before: ID.toUpperCase() }).before).toBe(ID);
  });

  it.each(['after', 'before'])('when %s is not a UUID, then the message names it', (field) => {
    expect(refusal(listQuerySchema, { [field]: 'user@example.com' }).message).toBe(
      `\`${field}\` must be a suppression id (a UUID).`,
    );
  });

  it('when after and before are both given, then they are refused together', () => {
    expect(refusal(listQuerySchema, { after: ID, before: OTHER_ID }).message).toBe(
      '`after` and `before` cannot be used together.',
    );
  });

  it.each(['bounce', 'complaint', 'manual'])('when origin is %s, then it is kept', (origin) => {
    expect(parseInput(listQuerySchema, { origin }).origin).toBe(origin);
  });

  it.each(['spam', 'BOUNCE', ''])('when origin is %j, then the message names origin and its values', (origin) => {
    expect(refusal(listQuerySchema, { origin }).message).toBe(
      '`origin` must be one of bounce, complaint, manual, unsubscribe.',
    );
  });

  it('when unknown parameters are given, then they are dropped', () => {
    expect(parseInput(listQuerySchema, { limit: '5', page: '2' })).not.toHaveProperty('page');
  });
});

describe('the single add body', () => {
  it('when email is a string, then it is kept as given (normalised later)', () => {
    expect(parseInput(addBodySchema, { email: ' A@Example.com' })).toEqual({ email: ' A@Example.com' });
  });

  it('when email is missing or not a string, then the message names email', () => {
    expect(refusal(addBodySchema, {}).message).toBe('`email` must be a string.');
    expect(refusal(addBodySchema, { email: 5 }).message).toBe('`email` must be a string.');
  });

  it.each([null, [], 'a@example.com', 3])('when the body is %j, then it must be a JSON object', (body) => {
    expect(refusal(addBodySchema, body).message).toBe('The request body must be a JSON object.');
  });
});

describe('the batch add body', () => {
  it('when 1 or 100 emails are given, then they are accepted', () => {
    expect(parseInput(batchAddBodySchema, { emails: emails(1) }).emails).toEqual(emails(1));
    expect(parseInput(batchAddBodySchema, { emails: emails(100) }).emails).toHaveLength(100);
  });

  it('when emails is missing or not an array, then the message names emails', () => {
    expect(refusal(batchAddBodySchema, {}).message).toBe('`emails` must be an array of 1 to 100 items.');
    expect(refusal(batchAddBodySchema, { emails: 'a@example.com' }).message).toBe(
      '`emails` must be an array of 1 to 100 items.',
    );
  });

  it('when emails is empty or holds 101 items, then the message gives the bound', () => {
    expect(refusal(batchAddBodySchema, { emails: [] }).message).toBe('`emails` must have at least 1 item.');
    expect(refusal(batchAddBodySchema, { emails: emails(101) }).message).toBe('`emails` must have at most 100 items.');
  });

  it('when the third item is not a string, then the message names emails[2]', () => {
    expect(refusal(batchAddBodySchema, { emails: ['a@example.com', 'b@example.com', 7] }).message).toBe(
      '`emails[2]` must be a string.',
    );
  });
});

describe('the batch remove body', () => {
  it('when only emails are given, then they are accepted', () => {
    const body = parseInput(batchRemoveBodySchema, { emails: ['a@example.com'] });
    expect(body.emails).toEqual(['a@example.com']);
    expect(body.ids).toBeUndefined();
  });

  it('when only ids are given, then they are accepted and lower-cased', () => {
    const body = parseInput(batchRemoveBodySchema, { ids: [ID.toUpperCase(), OTHER_ID] });
    expect(body.ids).toEqual([ID, OTHER_ID]);
    expect(body.emails).toBeUndefined();
  });

  it('when both emails and ids are given, then exactly one is asked for', () => {
    expect(refusal(batchRemoveBodySchema, { emails: ['a@example.com'], ids: [ID] }).message).toBe(
      'Provide either `emails` or `ids`, not both.',
    );
  });

  it('when neither emails nor ids is given, then one of them is asked for', () => {
    expect(refusal(batchRemoveBodySchema, {}).message).toBe('Provide `emails` or `ids`.');
  });

  it('when an id is not a UUID, then the message names its index', () => {
    expect(refusal(batchRemoveBodySchema, { ids: [ID, OTHER_ID, 'nope'] }).message).toBe(
      '`ids[2]` must be a suppression id (a UUID).',
    );
  });

  it('when ids or emails are empty or over 100, then the message names the field', () => {
    expect(refusal(batchRemoveBodySchema, { ids: [] }).message).toBe('`ids` must have at least 1 item.');
    expect(refusal(batchRemoveBodySchema, { emails: [] }).message).toBe('`emails` must have at least 1 item.');
    expect(refusal(batchRemoveBodySchema, { emails: emails(101) }).message).toBe(
      '`emails` must have at most 100 items.',
    );
  });

  it('when an email is not a string, then the message names emails[2]', () => {
    expect(refusal(batchRemoveBodySchema, { emails: ['a@example.com', 'b@example.com', null] }).message).toBe(
      '`emails[2]` must be a string.',
    );
  });

  it('when the body is not an object, then it must be a JSON object', () => {
    expect(refusal(batchRemoveBodySchema, ['a@example.com']).message).toBe('The request body must be a JSON object.');
  });
});
