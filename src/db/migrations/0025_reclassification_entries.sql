-- Up Migration
-- The entries a reclassification lifted, or in a dry run would lift: one row each, written with
-- the batch that judged it, so that an operator reviews exactly what a run found before applying
-- it (GET /bounces/reclassifications/{id}/entries, `reclassify --output`). The category, reason and
-- rule are the classifier's decision now on the entry's latest bounce, whose evidence is kept
-- beside them as the audit trail held it when the run read it.
CREATE TABLE bounce_reclassification_entries (
  reclassification_id uuid NOT NULL REFERENCES bounce_reclassifications (id) ON DELETE CASCADE,
  -- The entry's id; after a real run the entry itself is gone.
  suppression_id uuid NOT NULL,
  email text NOT NULL,
  category text NOT NULL,
  reason text NOT NULL,
  rule text NOT NULL,
  -- The bounce records of the address the run judged (since its last removal).
  bounces integer NOT NULL,
  bounce_type text,
  bounce_sub_type text,
  bounce_status text,
  bounce_reply_code text,
  bounce_diagnostic text,
  bounce_provider text,
  bounce_remote_mta text,
  occurred_at timestamptz,
  -- Pages go newest entry first by id, as every list does: the key serves them.
  PRIMARY KEY (reclassification_id, suppression_id)
);

-- Down Migration
DROP TABLE bounce_reclassification_entries;
