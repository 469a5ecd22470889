-- Up Migration
-- The words a caller gave for a removal, kept with its record: required to remove an entry that a
-- complaint put on the list, optional for any other. Nullable, so adding it rewrites nothing.
ALTER TABLE suppression_events ADD COLUMN reason text CHECK (char_length(reason) BETWEEN 1 AND 500);

-- Down Migration
ALTER TABLE suppression_events DROP COLUMN reason;
