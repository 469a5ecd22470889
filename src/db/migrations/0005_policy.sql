-- Up Migration
-- An account's suppression policy. No row means the defaults: no soft-bounce threshold (only
-- permanent bounces and complaints suppress), a 7-day window, and entries that never expire.
CREATE TABLE account_settings (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  soft_bounce_threshold integer CHECK (soft_bounce_threshold BETWEEN 2 AND 100),
  soft_bounce_window_days integer NOT NULL DEFAULT 7 CHECK (soft_bounce_window_days BETWEEN 1 AND 365),
  expire_bounce_after_days integer CHECK (expire_bounce_after_days BETWEEN 1 AND 3650),
  expire_complaint_after_days integer CHECK (expire_complaint_after_days BETWEEN 1 AND 3650),
  expire_manual_after_days integer CHECK (expire_manual_after_days BETWEEN 1 AND 3650),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Bytewise order for addresses: a prefix search (`email=jane*`) is then a range of the
-- (account_id, email) key, whatever the database's default collation. Addresses are stored
-- normalised, and equality is the same under either collation; the indexes on the column are rebuilt.
ALTER TABLE suppressions ALTER COLUMN email TYPE text COLLATE "C";

-- Search by domain, newest first.
CREATE INDEX suppressions_account_domain_id_idx ON suppressions (account_id, (split_part(email, '@', 2)), id DESC);
-- Search by creation time.
CREATE INDEX suppressions_account_created_at_idx ON suppressions (account_id, created_at);
-- The expiry sweep: an account's entries of one origin older than that origin's cutoff, oldest first.
CREATE INDEX suppressions_account_origin_created_at_idx ON suppressions (account_id, origin, created_at);

-- An address's history (newest first), and the count of its soft bounces within a window.
CREATE INDEX suppression_events_account_email_idx ON suppression_events (account_id, email);

-- A removal's reason: `expired` when the expiry sweep removed it; null when it was asked for (by
-- the key in api_key_id, or by a batch job).
ALTER TABLE suppression_events ADD COLUMN removal_reason text CHECK (removal_reason IN ('expired'));

-- The outcome of the soft bounce that brought an address to its account's threshold.
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_outcome_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_outcome_check CHECK (
  outcome IN ('suppressed', 'already_suppressed', 'not_suppressed', 'removed', 'suppressed_soft_bounce_threshold')
) NOT VALID;
ALTER TABLE suppression_events VALIDATE CONSTRAINT suppression_events_outcome_check;

-- Down Migration
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_outcome_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_outcome_check CHECK (
  outcome IN ('suppressed', 'already_suppressed', 'not_suppressed', 'removed')
);
ALTER TABLE suppression_events DROP COLUMN removal_reason;
DROP INDEX suppression_events_account_email_idx;
DROP INDEX suppressions_account_origin_created_at_idx;
DROP INDEX suppressions_account_created_at_idx;
DROP INDEX suppressions_account_domain_id_idx;
ALTER TABLE suppressions ALTER COLUMN email TYPE text;
DROP TABLE account_settings;
