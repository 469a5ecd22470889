-- Up Migration
-- Whether a webhook receives the changes of a type: the rule written once, for the outbox trigger
-- (a change is recorded only when a webhook of its account receives it) and for dispatch (one
-- delivery per webhook that receives it, `deliverChanges`). A single expression, so the planner
-- inlines it: the trigger's and the dispatch's plans are the ones they had with the rule written out.
CREATE FUNCTION webhook_subscribes(webhook webhooks, change_type text) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN webhook.status = 'enabled' AND change_type = ANY (webhook.events);

-- Both triggers name their transition table `changed_rows`, so one statement serves both.
-- Statement-level: one insert per statement, however many rows it changed, and for an account
-- without a subscribed webhook one probe of webhooks_account_id_idx. ON CONFLICT DO NOTHING leaves
-- an address already on the list out of the transition table, so re-adding it announces nothing.
CREATE OR REPLACE FUNCTION record_suppression_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change_type text := CASE TG_OP WHEN 'INSERT' THEN 'suppression.added' ELSE 'suppression.removed' END;
BEGIN
  INSERT INTO suppression_changes (account_id, type, suppression_id, email, origin, source_id, suppression_created_at)
  SELECT changed.account_id, change_type, changed.id, changed.email, changed.origin, changed.source_id, changed.created_at
  FROM changed_rows changed
  WHERE changed.account_id IN (SELECT w.account_id FROM webhooks w WHERE webhook_subscribes(w, change_type))
  ORDER BY changed.account_id, changed.id;
  RETURN NULL;
END
$$;

DROP TRIGGER suppressions_added ON suppressions;
CREATE TRIGGER suppressions_added AFTER INSERT ON suppressions
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_changes();

DROP TRIGGER suppressions_removed ON suppressions;
CREATE TRIGGER suppressions_removed AFTER DELETE ON suppressions
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_changes();

-- Down Migration
CREATE OR REPLACE FUNCTION record_suppression_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change_type text := CASE TG_OP WHEN 'INSERT' THEN 'suppression.added' ELSE 'suppression.removed' END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO suppression_changes (account_id, type, suppression_id, email, origin, source_id, suppression_created_at)
    SELECT changed.account_id, change_type, changed.id, changed.email, changed.origin, changed.source_id, changed.created_at
    FROM added_rows changed
    WHERE changed.account_id IN (
      SELECT account_id FROM webhooks WHERE status = 'enabled' AND change_type = ANY (events)
    )
    ORDER BY changed.account_id, changed.id;
  ELSE
    INSERT INTO suppression_changes (account_id, type, suppression_id, email, origin, source_id, suppression_created_at)
    SELECT changed.account_id, change_type, changed.id, changed.email, changed.origin, changed.source_id, changed.created_at
    FROM removed_rows changed
    WHERE changed.account_id IN (
      SELECT account_id FROM webhooks WHERE status = 'enabled' AND change_type = ANY (events)
    )
    ORDER BY changed.account_id, changed.id;
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER suppressions_added ON suppressions;
CREATE TRIGGER suppressions_added AFTER INSERT ON suppressions
  REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_changes();

DROP TRIGGER suppressions_removed ON suppressions;
CREATE TRIGGER suppressions_removed AFTER DELETE ON suppressions
  REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_changes();

DROP FUNCTION webhook_subscribes(webhooks, text);
