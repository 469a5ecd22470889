-- Up Migration
-- Append-only record of every event processed and every removal made through the API: the audit
-- trail, and (through the unique key) the guard that applies an event once however often it arrives.
CREATE TABLE suppression_events (
  account_id uuid NOT NULL,
  -- The upstream's id for a bounce or complaint; for a removal, an id of our own.
  event_id text NOT NULL CHECK (char_length(event_id) BETWEEN 1 AND 255),
  type text NOT NULL CHECK (type IN ('bounce', 'complaint', 'removal')),
  email text NOT NULL,
  source_id uuid,
  bounce_type text,
  bounce_sub_type text,
  bounce_status text,
  bounce_diagnostic text,
  complaint_feedback_type text,
  -- For removals: the key that removed the entry.
  api_key_id uuid,
  suppression_id uuid,
  outcome text NOT NULL CHECK (outcome IN ('suppressed', 'already_suppressed', 'not_suppressed', 'removed')),
  occurred_at timestamptz,
  received_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT suppression_events_pkey PRIMARY KEY (account_id, event_id)
);

-- Down Migration
DROP TABLE suppression_events;
