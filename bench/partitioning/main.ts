/**
 * bench:partitioning: how the migrations that partition the audit trail and the webhook log by
 * month (0016 to 0018) behave on a database that already holds a large trail. A database is
 * migrated to 0015, given N audit records (and a webhook log of N / 10 deliveries, each with an
 * attempt), and then migrated to the end while a reader asks for an address's history and a writer
 * records removals every 10 ms, as the API would. Reports each migration's time and the longest
 * any of those requests waited: the lock the hot path felt.
 *
 *   npm run bench:partitioning -- [--rows N]
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { databaseUrlFor } from '../../test/support/database-url.js';
import { parseIntOptions } from '../common/options.js';
import { markdownTable, seconds } from '../common/report.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/db/migrations', import.meta.url));
const ACCOUNT = '0190f0a0-0000-7000-8000-000000000001';
const PROBE_EVERY_MS = 10;

async function migrateTo(url: string, count: number): Promise<string[]> {
  const applied = await runner({
    databaseUrl: url,
    dir: MIGRATIONS,
    migrationsTable: 'pgmigrations',
    direction: 'up',
    count,
    singleTransaction: false,
    log: () => undefined,
  });
  return applied.map((migration) => migration.name);
}

async function load(client: pg.Client, rows: number): Promise<void> {
  await client.query(`INSERT INTO accounts (id, name) VALUES ($1, 'partitioning-bench')`, [ACCOUNT]);
  // A trail over the last year, in chunks so that progress shows and no transaction grows huge.
  const chunk = 1_000_000;
  for (let start = 0; start < rows; start += chunk) {
    const end = Math.min(rows, start + chunk);
    await client.query(
      `INSERT INTO suppression_events (account_id, event_id, type, email, bounce_type, bounce_diagnostic, outcome, received_at)
       SELECT $1, 'evt-' || g, 'bounce', 'user' || (g % 500000) || '@example' || (g % 97) || '.com', 'permanent',
              'smtp; 550 5.1.1 <user' || g || '@example.com>: Recipient address rejected: User unknown',
              'not_suppressed', now() - (g % 525600) * interval '1 minute'
       FROM generate_series($2::bigint, $3::bigint) g`,
      [ACCOUNT, start + 1, end],
    );
    process.stderr.write(`\rloaded ${end.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} audit records`);
  }
  process.stderr.write('\n');
  await client.query(
    `INSERT INTO webhooks (id, account_id, endpoint, events, signing_secret)
     VALUES ('0190f0a0-0000-7000-8000-0000000000bb', $1, 'https://hooks.example.com/x', '{}', 'whsec_x')`,
    [ACCOUNT],
  );
  await client.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, change_id, type, payload, created_at, status)
     SELECT 'msg_' || g, '0190f0a0-0000-7000-8000-0000000000bb', g, 'suppression.added', '{}',
            now() - (g % 43200) * interval '1 minute', 'success'
     FROM generate_series(1, $1::bigint) g`,
    [Math.ceil(rows / 10)],
  );
  await client.query(
    `INSERT INTO webhook_attempts (id, delivery_id, http_status_code, response, sent_at, duration_ms)
     SELECT gen_random_uuid(), id, 200, 'ok', created_at, 5 FROM webhook_deliveries`,
  );
  await client.query('VACUUM ANALYZE');
}

/** Requests of the API's kind every 10 ms until stopped; returns the longest each kind took. */
function probe(url: string): { stop: () => Promise<{ readMs: number; writeMs: number; failed: number }> } {
  let running = true;
  const worst = { readMs: 0, writeMs: 0, failed: 0 };
  const loop = async (kind: 'readMs' | 'writeMs', statement: string, values: () => unknown[]) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let n = 0;
    while (running) {
      const started = performance.now();
      try {
        await client.query(statement, values());
      } catch {
        worst.failed += 1;
      }
      worst[kind] = Math.max(worst[kind], performance.now() - started);
      n += 1;
      await sleep(PROBE_EVERY_MS);
    }
    await client.end();
    return n;
  };
  const loops = [
    loop('readMs', `SELECT event_id FROM suppression_events WHERE account_id = $1 AND email = $2 LIMIT 20`, () => [
      ACCOUNT,
      `user${Math.floor(Math.random() * 500000)}@example1.com`,
    ]),
    // What every removal writes: one audit record (columns every version of the table has).
    loop(
      'writeMs',
      `INSERT INTO suppression_events (account_id, event_id, type, email, outcome) VALUES ($1, $2, 'removal', 'probe@example.com', 'removed')`,
      () => [ACCOUNT, `probe-${performance.now()}-${Math.random()}`],
    ),
  ];
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return worst;
    },
  };
}

async function main(): Promise<void> {
  const options = parseIntOptions({ rows: { flag: 'rows', env: 'BENCH_ROWS', min: 1000 } });
  const rows = options.rows ?? 10_000_000;
  const config = loadConfig();
  const name = `bench_partitioning_${process.pid}`;
  const admin = new pg.Client({ connectionString: config.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = databaseUrlFor(config.DATABASE_URL, name);
  const client = new pg.Client({ connectionString: url });
  try {
    await migrateTo(url, 15);
    await client.connect();
    const loadStart = performance.now();
    await load(client, rows);
    const loadMs = performance.now() - loadStart;

    const probes = probe(url);
    await sleep(200);
    const steps: (string | number)[][] = [];
    for (const migration of ['0016', '0017', '0018']) {
      const started = performance.now();
      const [applied] = await migrateTo(url, 1);
      steps.push([applied ?? migration, seconds(performance.now() - started)]);
    }
    await sleep(200);
    const worst = await probes.stop();
    await client.query('SELECT 1');
    process.stdout.write(
      `bench:partitioning: ${rows.toLocaleString('en-US')} audit records and ${Math.ceil(rows / 10).toLocaleString('en-US')} webhook deliveries loaded in ${seconds(loadMs)} s; ` +
        `${os.cpus().length} CPUs, Node ${process.version}\n\n` +
        markdownTable(['migration', 'seconds'], steps) +
        `\nlongest wait of a history read during the migrations: ${worst.readMs.toFixed(0)} ms; ` +
        `of an audit write: ${worst.writeMs.toFixed(0)} ms; failed requests: ${worst.failed}\n`,
    );
  } finally {
    await client.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  createLogger('error').error({ err: error }, 'bench:partitioning failed');
  process.exitCode = 1;
});
