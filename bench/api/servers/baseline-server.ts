/**
 * The lookup baseline: bare Express 5 and a pg Pool of the service's size doing the same indexed
 * lookup (`WHERE account_id = $1 AND email = $2`), with no authentication, validation, rate
 * limiting, metrics or logging. GET /:account/:email answers the row as JSON, or 404.
 * DATABASE_URL and DATABASE_POOL_SIZE from the environment; prints `LISTENING <url>` once bound.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const app = express();
app.get('/:account/:email', async (req, res) => {
  const { rows } = await pool.query({
    name: 'lookup',
    text: 'SELECT id, account_id, email, origin, source_id, created_at FROM suppressions WHERE account_id = $1 AND email = $2',
    values: [req.params.account, req.params.email],
  });
  if (rows[0]) res.json(rows[0]);
  else res.status(404).json({ error: 'not found' });
});
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as AddressInfo;
const stop = (): void => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdout.write(`LISTENING http://127.0.0.1:${port}\n`);
