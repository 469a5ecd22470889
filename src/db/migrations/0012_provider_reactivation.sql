-- Up Migration
-- A removal by the provider that reported the evidence, withdrawing it (Postmark's reactivation of
-- an address on a stream's suppression list).
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_removal_reason_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_removal_reason_check
  CHECK (removal_reason IN ('expired', 'reclassified', 'reactivated')) NOT VALID;
ALTER TABLE suppression_events VALIDATE CONSTRAINT suppression_events_removal_reason_check;

-- Down Migration
DELETE FROM suppression_events WHERE removal_reason = 'reactivated';
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_removal_reason_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_removal_reason_check
  CHECK (removal_reason IN ('expired', 'reclassified'));
