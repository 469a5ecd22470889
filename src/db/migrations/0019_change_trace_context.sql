-- Up Migration
-- A change carries the trace of the write that made it (a W3C traceparent, set for its transaction
-- by a traced event batch), so that its webhook delivery continues that trace. Untraced writes
-- leave it null.
ALTER TABLE suppression_changes ADD COLUMN trace_context text;

CREATE OR REPLACE FUNCTION record_suppression_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change_type text := CASE TG_OP WHEN 'INSERT' THEN 'suppression.added' ELSE 'suppression.removed' END;
  trace text := NULLIF(current_setting('suppression_list.trace_context', true), '');
BEGIN
  INSERT INTO suppression_changes (account_id, type, suppression_id, email, origin, source_id, suppression_created_at, scope, trace_context)
  SELECT changed.account_id, change_type, changed.id, changed.email, changed.origin, changed.source_id, changed.created_at, changed.scope, trace
  FROM changed_rows changed
  WHERE changed.account_id IN (SELECT w.account_id FROM webhooks w WHERE webhook_subscribes(w, change_type))
  ORDER BY changed.account_id, changed.id;
  RETURN NULL;
END
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION record_suppression_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change_type text := CASE TG_OP WHEN 'INSERT' THEN 'suppression.added' ELSE 'suppression.removed' END;
BEGIN
  INSERT INTO suppression_changes (account_id, type, suppression_id, email, origin, source_id, suppression_created_at, scope)
  SELECT changed.account_id, change_type, changed.id, changed.email, changed.origin, changed.source_id, changed.created_at, changed.scope
  FROM changed_rows changed
  WHERE changed.account_id IN (SELECT w.account_id FROM webhooks w WHERE webhook_subscribes(w, change_type))
  ORDER BY changed.account_id, changed.id;
  RETURN NULL;
END
$$;
ALTER TABLE suppression_changes DROP COLUMN trace_context;
