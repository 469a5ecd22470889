-- Up Migration
-- Who or what made each record of the history: an API key, a console session (its key), a feed, a
-- producer on the events or batches queue, a recipient's unsubscribe link, or the service itself
-- (expiry, reclassification). Records written before have none; the history derives theirs from
-- what they hold (see src/suppressions/suppression-history.ts). Nullable, so adding them rewrites nothing.
ALTER TABLE suppression_events
  ADD COLUMN actor_type text CHECK (actor_type IN ('api_key', 'console', 'feed', 'queue', 'unsubscribe_link', 'system')),
  ADD COLUMN actor_id text CHECK (char_length(actor_id) BETWEEN 1 AND 255);

-- An entry added through the API, the console or an import is recorded as an addition.
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_type_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_type_check
  CHECK (type IN ('bounce', 'complaint', 'removal', 'addition')) NOT VALID;
ALTER TABLE suppression_events VALIDATE CONSTRAINT suppression_events_type_check;

-- Down Migration
DELETE FROM suppression_events WHERE type = 'addition';
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_type_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_type_check
  CHECK (type IN ('bounce', 'complaint', 'removal'));
ALTER TABLE suppression_events DROP COLUMN actor_id, DROP COLUMN actor_type;
