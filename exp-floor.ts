import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createDatabase } from './src/db/database.js';
import { createLogger } from './src/logger.js';
import { recordEvents } from './src/events/event-repository.js';
import { toEventRecord } from './src/events/event-record.js';
import { DEFAULT_EVENT_POLICY } from './src/policy/settings-repository.js';
import { parseSuppressionEvent } from './src/events/event-schema.js';
import { generateEvents } from './bench/common/event-fixtures.js';
const url = process.env.URL!;
const admin = new pg.Client({ connectionString: url }); await admin.connect();
const ids = Array.from({ length: 1000 }, () => randomUUID());
await admin.query('INSERT INTO accounts (id, name) SELECT id, id::text FROM unnest($1::uuid[]) id', [ids]);
const N = Number(process.env.N ?? 100000), B = 500;
const records = generateEvents(ids, N, { seed: 7 }).map((e) => toEventRecord(parseSuppressionEvent(e), DEFAULT_EVENT_POLICY));
const esc = (v: unknown) => v === null || v === undefined ? '\\N' : String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const line = (vals: unknown[]) => vals.map(esc).join('\t') + '\n';
const mode = process.env.MODE!;
const db = createDatabase({ url, poolSize: 1, logger: createLogger('silent') });
const client = await db.pool.connect();
const seen = new Set<string>();
const cpu0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < N; i += B) {
  const batch = records.slice(i, i + B);
  if (mode === 'statement') { await recordEvents(client, batch); continue; }
  const fresh = batch.filter((r) => r.origin !== null && !seen.has(r.account_id + r.email) && seen.add(r.account_id + r.email));
  await client.query('BEGIN');
  await pipeline(Readable.from([batch.map((r) => line([r.account_id, r.event_id])).join('')]), client.query(copyFrom('COPY event_receipts (account_id, event_id) FROM STDIN')));
  await pipeline(Readable.from([fresh.map((r) => line([r.suppression_id, r.account_id, r.email, r.origin, r.source_id, r.scope])).join('')]), client.query(copyFrom('COPY suppressions (id, account_id, email, origin, source_id, scope) FROM STDIN')));
  await pipeline(Readable.from([batch.map((r) => line([r.account_id, r.event_id, r.type, r.email, r.scope, r.source_id, r.bounce_type, r.bounce_sub_type, r.bounce_status, r.bounce_reply_code, r.bounce_diagnostic, r.bounce_provider, r.bounce_remote_mta, r.bounce_category, r.bounce_reason, r.bounce_rule, r.classifier_version, r.complaint_feedback_type, r.provider_message_id, r.suppression_id, r.origin ? 'suppressed' : 'not_suppressed', r.occurred_at, r.actor_type, r.actor_id])).join('')]),
    client.query(copyFrom('COPY suppression_events (account_id, event_id, type, email, scope, source_id, bounce_type, bounce_sub_type, bounce_status, bounce_reply_code, bounce_diagnostic, bounce_provider, bounce_remote_mta, bounce_category, bounce_reason, bounce_rule, classifier_version, complaint_feedback_type, provider_message_id, suppression_id, outcome, occurred_at, actor_type, actor_id) FROM STDIN')));
  await client.query('COMMIT');
}
const ms = performance.now() - t0; const cpu = process.cpuUsage(cpu0);
const { rows } = await admin.query(`select sum(total_exec_time) ms from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`);
console.log(`${mode}: ${(ms * 1000 / N).toFixed(1)} µs/event wall, node ${((cpu.user + cpu.system) / N).toFixed(1)} µs/event, pg exec ${(rows[0].ms * 1000 / N).toFixed(1)} µs/event`);
client.release(); await db.close(); await admin.end();
