-- Up Migration
-- The audit trail partitioned by the month it was received in, so that what is past its retention
-- (AUDIT_RETENTION_DAYS) goes by dropping whole partitions (src/events/audit-partitions.ts). The
-- table of before becomes the partition of everything before the first month: its promise (0016) is
-- checked here under a lock that lets events go on being written, and the switch itself only
-- renames and attaches, without scanning anything.
ALTER TABLE suppression_events VALIDATE CONSTRAINT suppression_events_legacy_bound;

-- What de-duplicates an event from here on: a partitioned table cannot hold a unique key that
-- leaves out the partition key, and an event redelivered next month lands in another partition.
-- Only events from outside have a receipt; records the service makes have ids of its own.
CREATE TABLE event_receipts (
  account_id uuid NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT event_receipts_pkey PRIMARY KEY (account_id, event_id)
);

-- The records that explain a current entry (its deciding bounce or complaint, or its addition),
-- copied here from a month partition before it is dropped, so a year-old entry still says why.
CREATE TABLE suppression_events_kept (
  LIKE suppression_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
  CONSTRAINT suppression_events_kept_pkey PRIMARY KEY (account_id, event_id)
);
ALTER TABLE suppression_events_kept DROP CONSTRAINT suppression_events_legacy_bound;
CREATE INDEX suppression_events_kept_account_email_idx ON suppression_events_kept (account_id, email);
CREATE INDEX suppression_events_kept_suppression_idx ON suppression_events_kept (suppression_id);

ALTER TABLE suppression_events RENAME TO suppression_events_legacy;
ALTER TABLE suppression_events_legacy RENAME CONSTRAINT suppression_events_pkey TO suppression_events_legacy_pkey;
ALTER INDEX suppression_events_account_email_idx RENAME TO suppression_events_legacy_account_email_idx;
ALTER INDEX suppression_events_account_bounce_received_idx RENAME TO suppression_events_legacy_bounce_received_idx;

CREATE TABLE suppression_events (LIKE suppression_events_legacy INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
  PARTITION BY RANGE (received_at);
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_legacy_bound;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM suppression_events_legacy) THEN
    EXECUTE format(
      'ALTER TABLE suppression_events ATTACH PARTITION suppression_events_legacy FOR VALUES FROM (MINVALUE) TO (%L)',
      (SELECT legacy_until FROM month_partitioning WHERE parent = 'suppression_events')
    );
  ELSE
    DROP TABLE suppression_events_legacy;
    UPDATE month_partitioning SET legacy_until = '-infinity' WHERE parent = 'suppression_events';
  END IF;
END $$;

-- On the legacy partition these find its own indexes and adopt them; on each month they are built.
CREATE INDEX suppression_events_account_email_idx ON suppression_events (account_id, email);
CREATE INDEX suppression_events_account_bounce_received_idx ON suppression_events (account_id, received_at)
  WHERE type = 'bounce';

-- Creates the partition of `parent` for the month that holds `month`, unless it exists or the
-- legacy partition covers it. As a table of its own, attached afterwards: attaching takes a lighter
-- lock on the parent than creating a partition does. Months are UTC months.
CREATE FUNCTION create_month_partition(parent text, month timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  first_day timestamp := date_trunc('month', month AT TIME ZONE 'UTC');
  name text := parent || '_' || to_char(first_day, 'YYYY_MM');
  settings month_partitioning%ROWTYPE;
  unique_key text;
BEGIN
  SELECT * INTO STRICT settings FROM month_partitioning p WHERE p.parent = create_month_partition.parent;
  IF to_regclass(name) IS NOT NULL OR (first_day + interval '1 month') AT TIME ZONE 'UTC' <= settings.legacy_until THEN
    RETURN NULL;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, parent);
  FOREACH unique_key IN ARRAY settings.partition_unique_keys LOOP
    EXECUTE format('CREATE UNIQUE INDEX ON %I (%s)', name, unique_key);
  END LOOP;
  EXECUTE format(
    'ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
    parent,
    name,
    GREATEST(first_day AT TIME ZONE 'UTC', settings.legacy_until),
    (first_day + interval '1 month') AT TIME ZONE 'UTC'
  );
  RETURN name;
END $$;

-- Last month's too, for records a clock a little behind writes at the turn of a month.
SELECT create_month_partition('suppression_events', now() - interval '1 month');
SELECT create_month_partition('suppression_events', now());
SELECT create_month_partition('suppression_events', now() + interval '1 month');

-- The whole trail as readers see it: the partitions and the kept records. A record is in one or
-- the other, never both: it is copied to the kept table in the transaction that detaches its month.
CREATE VIEW suppression_audit_trail AS
  SELECT * FROM suppression_events
  UNION ALL
  SELECT * FROM suppression_events_kept;

-- Down Migration
-- Back to one table holding every record, kept ones included; receipts go, as the table's own key
-- de-duplicates again.
DROP VIEW suppression_audit_trail;
CREATE TABLE suppression_events_single (LIKE suppression_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
INSERT INTO suppression_events_single SELECT * FROM suppression_events;
INSERT INTO suppression_events_single SELECT * FROM suppression_events_kept;
DROP TABLE suppression_events;
DROP TABLE suppression_events_kept;
DROP TABLE event_receipts;
DROP FUNCTION create_month_partition(text, timestamptz);
ALTER TABLE suppression_events_single RENAME TO suppression_events;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_pkey PRIMARY KEY (account_id, event_id);
CREATE INDEX suppression_events_account_email_idx ON suppression_events (account_id, email);
CREATE INDEX suppression_events_account_bounce_received_idx ON suppression_events (account_id, received_at)
  WHERE type = 'bounce';
-- As 0016 left it, so that this migration can be applied again.
UPDATE month_partitioning SET legacy_until = date_trunc('month', now(), 'UTC') + interval '1 month'
WHERE parent = 'suppression_events';
DO $$
BEGIN
  EXECUTE format(
    'ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_legacy_bound CHECK (received_at < %L) NOT VALID',
    date_trunc('month', now(), 'UTC') + interval '1 month'
  );
END $$;
