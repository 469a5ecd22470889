import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * Sends text-format `COPY` lines to `statement` (`COPY ... FROM STDIN`), in pieces of any size: a
 * piece per write, so a caller joins many lines into one rather than writing each on its own.
 */
export async function copyIn(
  client: pg.ClientBase,
  statement: string,
  pieces: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  await pipeline(Readable.from(pieces), client.query(copyFrom(statement)));
}
