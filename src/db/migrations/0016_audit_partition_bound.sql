-- Up Migration
-- The first step of partitioning the audit trail by month (0017). Every record the table holds today
-- is promised to fall before the first month partition, so that 0017 can make the table the
-- partition of everything before that month without scanning it under a lock. Added unchecked here,
-- which takes a moment's lock; 0017 checks it while events go on being written.
CREATE TABLE audit_partitioning (
  single boolean PRIMARY KEY DEFAULT true CHECK (single),
  -- Where the records kept from before partitioning end and the month partitions begin;
  -- '-infinity' once there are none.
  legacy_until timestamptz NOT NULL
);
INSERT INTO audit_partitioning (legacy_until) VALUES (date_trunc('month', now(), 'UTC') + interval '1 month');

DO $$
BEGIN
  EXECUTE format(
    'ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_legacy_bound CHECK (received_at < %L) NOT VALID',
    (SELECT legacy_until FROM audit_partitioning)
  );
END $$;

-- Down Migration
ALTER TABLE suppression_events DROP CONSTRAINT IF EXISTS suppression_events_legacy_bound;
DROP TABLE audit_partitioning;
