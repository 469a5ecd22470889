import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.js';

/** The account's unsubscribe secret, made with its first link. */
export async function unsubscribeSecret(db: Queryable, accountId: string): Promise<Buffer> {
  const { rows } = await db.query<{ secret: Buffer }>({
    name: 'unsubscribe-secret-ensure',
    // Concurrent first links: one insert wins, and every caller reads the secret that won.
    text: `WITH made AS (
             INSERT INTO unsubscribe_secrets (account_id, secret) VALUES ($1, $2)
             ON CONFLICT (account_id) DO NOTHING RETURNING secret
           )
           SELECT secret FROM made UNION ALL SELECT secret FROM unsubscribe_secrets WHERE account_id = $1`,
    values: [accountId, randomBytes(32)],
  });
  return (rows[0] as { secret: Buffer }).secret;
}

/** The account's unsubscribe secret, or null when it never made a link. */
export async function findUnsubscribeSecret(db: Queryable, accountId: string): Promise<Buffer | null> {
  const { rows } = await db.query<{ secret: Buffer }>({
    name: 'unsubscribe-secret-find',
    text: 'SELECT secret FROM unsubscribe_secrets WHERE account_id = $1',
    values: [accountId],
  });
  return rows[0]?.secret ?? null;
}

/** A new secret for the account: every link made before stops working. */
export async function rotateUnsubscribeSecret(db: Queryable, accountId: string): Promise<void> {
  await db.query({
    text: `INSERT INTO unsubscribe_secrets (account_id, secret) VALUES ($1, $2)
           ON CONFLICT (account_id) DO UPDATE SET secret = EXCLUDED.secret, created_at = now()`,
    values: [accountId, randomBytes(32)],
  });
}
