-- Up Migration
-- The webhook event log partitioned by month, like the audit trail (0017), so that deliveries past
-- their retention go by dropping whole partitions (src/webhooks/log-partitions.ts). A delivery's
-- month is that of its change, and an attempt's that of its sending. The tables of before become
-- the partitions of everything before the first month, their promise (0016) checked here under a
-- lock that lets deliveries go on; they keep their own keys, and each month gets its own.
ALTER TABLE webhook_deliveries VALIDATE CONSTRAINT webhook_deliveries_legacy_bound;
ALTER TABLE webhook_attempts VALIDATE CONSTRAINT webhook_attempts_legacy_bound;

-- A partitioned table's unique keys must hold its partition key; these are unique within a month,
-- and a delivery's id and its (webhook, change) are unique by how they are made.
UPDATE month_partitioning SET partition_unique_keys = ARRAY['id', 'webhook_id, change_id']
WHERE parent = 'webhook_deliveries';
UPDATE month_partitioning SET partition_unique_keys = ARRAY['id'] WHERE parent = 'webhook_attempts';

-- An attempt and its delivery can fall in different months, so the attempt no longer refers to it
-- by a key: attempts are removed with their webhook (src/webhooks/webhook-repository.ts) or
-- with their month.
ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_delivery_id_fkey;

ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_legacy;
ALTER INDEX webhook_deliveries_pkey RENAME TO webhook_deliveries_legacy_pkey;
ALTER INDEX webhook_deliveries_webhook_change_key RENAME TO webhook_deliveries_legacy_webhook_change_key;
ALTER INDEX webhook_deliveries_due_idx RENAME TO webhook_deliveries_legacy_due_idx;
DROP INDEX webhook_deliveries_created_at_idx;
ALTER TABLE webhook_attempts RENAME TO webhook_attempts_legacy;
ALTER INDEX webhook_attempts_pkey RENAME TO webhook_attempts_legacy_pkey;
ALTER INDEX webhook_attempts_delivery_id_idx RENAME TO webhook_attempts_legacy_delivery_id_idx;

CREATE TABLE webhook_deliveries (LIKE webhook_deliveries_legacy INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY RANGE (created_at);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_legacy_bound;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_fkey
  FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE;
CREATE TABLE webhook_attempts (LIKE webhook_attempts_legacy INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY RANGE (sent_at);
ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_legacy_bound;

DO $$
DECLARE
  until timestamptz;
BEGIN
  SELECT legacy_until INTO until FROM month_partitioning WHERE parent = 'webhook_deliveries';
  IF EXISTS (SELECT 1 FROM webhook_deliveries_legacy) THEN
    EXECUTE format(
      'ALTER TABLE webhook_deliveries ATTACH PARTITION webhook_deliveries_legacy FOR VALUES FROM (MINVALUE) TO (%L)',
      until
    );
  ELSE
    DROP TABLE webhook_deliveries_legacy;
    UPDATE month_partitioning SET legacy_until = '-infinity' WHERE parent = 'webhook_deliveries';
  END IF;
  IF EXISTS (SELECT 1 FROM webhook_attempts_legacy) THEN
    EXECUTE format(
      'ALTER TABLE webhook_attempts ATTACH PARTITION webhook_attempts_legacy FOR VALUES FROM (MINVALUE) TO (%L)',
      until
    );
  ELSE
    DROP TABLE webhook_attempts_legacy;
    UPDATE month_partitioning SET legacy_until = '-infinity' WHERE parent = 'webhook_attempts';
  END IF;
END $$;

-- On the legacy partitions these adopt their own indexes; on each month they are built.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'attempting');
CREATE INDEX webhook_attempts_delivery_id_idx ON webhook_attempts (delivery_id, id);

SELECT create_month_partition(parent, month)
FROM unnest(ARRAY['webhook_deliveries', 'webhook_attempts']) AS parent,
     unnest(ARRAY[now() - interval '1 month', now(), now() + interval '1 month']) AS month;

-- Down Migration
CREATE TABLE webhook_deliveries_single (LIKE webhook_deliveries INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
INSERT INTO webhook_deliveries_single SELECT * FROM webhook_deliveries;
CREATE TABLE webhook_attempts_single (LIKE webhook_attempts INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
INSERT INTO webhook_attempts_single SELECT a.* FROM webhook_attempts a
WHERE EXISTS (SELECT 1 FROM webhook_deliveries_single d WHERE d.id = a.delivery_id);
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_single RENAME TO webhook_deliveries;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_fkey
  FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_change_key UNIQUE (webhook_id, change_id);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'attempting');
CREATE INDEX webhook_deliveries_created_at_idx ON webhook_deliveries (created_at);
ALTER TABLE webhook_attempts_single RENAME TO webhook_attempts;
ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (id);
ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_delivery_id_fkey
  FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id) ON DELETE CASCADE;
CREATE INDEX webhook_attempts_delivery_id_idx ON webhook_attempts (delivery_id, id);
-- As 0016 left them, so that this migration can be applied again.
UPDATE month_partitioning SET partition_unique_keys = '{}', legacy_until = date_trunc('month', now(), 'UTC') + interval '1 month'
WHERE parent IN ('webhook_deliveries', 'webhook_attempts');
DO $$
DECLARE
  bound timestamptz := date_trunc('month', now(), 'UTC') + interval '1 month';
BEGIN
  EXECUTE format('ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_legacy_bound CHECK (created_at < %L) NOT VALID', bound);
  EXECUTE format('ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_legacy_bound CHECK (sent_at < %L) NOT VALID', bound);
END $$;
