-- Up Migration
-- The first step of partitioning the tables that grow with traffic by month (0017: the audit trail;
-- 0018: the webhook event log). Every row each holds today is promised to fall before its first
-- month partition, so that the table can become the partition of everything before that month
-- without being scanned under a lock. Added unchecked here, which takes a moment's lock; the next
-- migrations check it while rows go on being written.
CREATE TABLE month_partitioning (
  parent text PRIMARY KEY,
  -- Where the rows kept from before partitioning end and the month partitions begin; '-infinity'
  -- once there are none.
  legacy_until timestamptz NOT NULL,
  -- Keys unique within each month partition, built on each as it is created: a partitioned table's
  -- own unique keys must hold the partition key, which these do not need.
  partition_unique_keys text[] NOT NULL DEFAULT '{}'
);
INSERT INTO month_partitioning (parent, legacy_until)
SELECT parent, date_trunc('month', now(), 'UTC') + interval '1 month'
FROM unnest(ARRAY['suppression_events', 'webhook_deliveries', 'webhook_attempts']) AS parent;

DO $$
DECLARE
  bound timestamptz := date_trunc('month', now(), 'UTC') + interval '1 month';
BEGIN
  EXECUTE format('ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_legacy_bound CHECK (received_at < %L) NOT VALID', bound);
  EXECUTE format('ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_legacy_bound CHECK (created_at < %L) NOT VALID', bound);
  EXECUTE format('ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_legacy_bound CHECK (sent_at < %L) NOT VALID', bound);
END $$;

-- Down Migration
ALTER TABLE webhook_attempts DROP CONSTRAINT IF EXISTS webhook_attempts_legacy_bound;
ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_legacy_bound;
ALTER TABLE suppression_events DROP CONSTRAINT IF EXISTS suppression_events_legacy_bound;
DROP TABLE month_partitioning;
