-- Up Migration
-- The evidence a bounce carries besides its status and text, and the decision the classifier made
-- from it (src/bounces/classify-bounce.ts), kept with the record so the history can explain it and a
-- reclassification can run the rules again. Records written before this migration have no decision.
ALTER TABLE suppression_events
  ADD COLUMN bounce_reply_code text,
  ADD COLUMN bounce_provider text,
  ADD COLUMN bounce_remote_mta text,
  ADD COLUMN bounce_category text,
  ADD COLUMN bounce_reason text,
  ADD COLUMN bounce_rule text,
  ADD COLUMN classifier_version text;

-- A removal by a reclassification that found no evidence left for the entry.
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_removal_reason_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_removal_reason_check
  CHECK (removal_reason IN ('expired', 'reclassified')) NOT VALID;
ALTER TABLE suppression_events VALIDATE CONSTRAINT suppression_events_removal_reason_check;

-- An account's bounce actions: only the categories it changed, `{category: action}`; the others
-- keep their defaults, so a new category's default applies to every account that never set it.
ALTER TABLE account_settings ADD COLUMN bounce_actions jsonb NOT NULL DEFAULT '{}';

-- An account's bounces of a period, for its summary.
CREATE INDEX suppression_events_account_bounce_received_idx ON suppression_events (account_id, received_at)
  WHERE type = 'bounce';

-- Runs of the classifier over an account's stored records, followed as imports are.
CREATE TABLE bounce_reclassifications (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  dry_run boolean NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  classifier_version text NOT NULL,
  -- The bounce entries to examine, known once the run starts.
  entries_total integer,
  entries_examined integer NOT NULL DEFAULT 0,
  -- Examined entries with no bounce or complaint record to re-examine (imported, added by hand): kept.
  entries_without_evidence integer NOT NULL DEFAULT 0,
  records_examined integer NOT NULL DEFAULT 0,
  lifted integer NOT NULL DEFAULT 0,
  -- {category: count}: the category of the lifted entries' strongest remaining evidence.
  lifted_by_category jsonb NOT NULL DEFAULT '{}',
  -- {category: count}: the examined bounce records, by their category now.
  records_by_category jsonb NOT NULL DEFAULT '{}',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX bounce_reclassifications_account_created_idx ON bounce_reclassifications (account_id, created_at DESC);

-- Down Migration
DROP TABLE bounce_reclassifications;
DROP INDEX suppression_events_account_bounce_received_idx;
ALTER TABLE account_settings DROP COLUMN bounce_actions;
UPDATE suppression_events SET removal_reason = NULL WHERE removal_reason = 'reclassified';
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_removal_reason_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_removal_reason_check
  CHECK (removal_reason IN ('expired'));
ALTER TABLE suppression_events
  DROP COLUMN bounce_reply_code,
  DROP COLUMN bounce_provider,
  DROP COLUMN bounce_remote_mta,
  DROP COLUMN bounce_category,
  DROP COLUMN bounce_reason,
  DROP COLUMN bounce_rule,
  DROP COLUMN classifier_version;
