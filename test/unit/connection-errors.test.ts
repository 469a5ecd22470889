import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/connection-errors.js';
import { closedPort } from '../support/unreachable.js';

/** An error as node-postgres builds it from a server's ErrorResponse. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

function socketError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, syscall: 'connect' });
}

describe('isDatabaseUnavailable', () => {
  it('when node-postgres cannot reach the server, then the error it throws means unavailable', async () => {
    const port = await closedPort();
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      database: 'postgres',
      connectionTimeoutMillis: 2000,
    });
    const error: unknown = await client.connect().then(
      () => new Error('unexpectedly connected'),
      (reason: unknown) => reason,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('when the socket connection is refused, then it is unavailable', () => {
    expect(isDatabaseUnavailable(socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
  });

  it.each(['08000', '08001', '08003', '08006', '08P01'])(
    'when the server answers SQLSTATE %s (connection exception), then it is unavailable',
    (code) => {
      expect(isDatabaseUnavailable(serverError(code, 'connection failure'))).toBe(true);
    },
  );

  it('when the server is shutting down (57P01), then it is unavailable', () => {
    expect(isDatabaseUnavailable(serverError('57P01', 'terminating connection due to administrator command'))).toBe(
      true,
    );
  });

  it('when every address of a host refuses the connection (AggregateError), then it is unavailable', () => {
    const error = new AggregateError(
      [
        socketError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432'),
        socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      ],
      '',
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('when an AggregateError holds only query errors, then it is not unavailable', () => {
    const error = new AggregateError(
      [serverError('42P01', 'relation "x" does not exist'), new Error('boom')],
      'several',
    );
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('when the connection ends mid-query, then it is unavailable', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('when the pool times out connecting, then it is unavailable', () => {
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it.each([
    ['42P01', 'relation "missing_table" does not exist'],
    ['42601', 'syntax error at or near "SELEC"'],
    ['23505', 'duplicate key value violates unique constraint "suppressions_account_id_email_key"'],
    ['22P02', 'invalid input syntax for type uuid: "x"'],
  ])('when the query itself is wrong (SQLSTATE %s), then it is not unavailable', (code, message) => {
    expect(isDatabaseUnavailable(serverError(code, message))).toBe(false);
  });

  it('when a plain Error is thrown, then it is not unavailable', () => {
    expect(isDatabaseUnavailable(new Error('Cannot read properties of undefined'))).toBe(false);
  });

  it.each([
    ['a string', 'ECONNREFUSED'],
    ['a plain object with a code', { code: 'ECONNREFUSED', message: 'Connection terminated' }],
    ['null', null],
    ['undefined', undefined],
  ])('when the thrown value is %s rather than an Error, then it is not unavailable', (_, value) => {
    expect(isDatabaseUnavailable(value)).toBe(false);
  });
});
