-- Up Migration
-- An account's endpoint for change events (`suppression.added`, `suppression.removed`). The signing
-- secret is kept as issued, since every delivery is signed with it; after a rotation the previous one
-- also signs for a day, so receivers can switch over without dropping deliveries.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  endpoint text NOT NULL,
  events text[] NOT NULL,
  status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  signing_secret text NOT NULL,
  previous_signing_secret text,
  secret_rotated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- An account's webhooks, newest first (ids are UUIDv7), and the triggers' test for a subscriber.
CREATE INDEX webhooks_account_id_idx ON webhooks (account_id, id);

-- The outbox: one row per entry added or removed, written by the triggers below in the transaction
-- that made the change, so a change is recorded if and only if it committed, whichever code path
-- made it. Only changes some enabled webhook subscribes to are recorded. The dispatcher turns each
-- row into deliveries and deletes it.
CREATE TABLE suppression_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('suppression.added', 'suppression.removed')),
  suppression_id uuid NOT NULL,
  email text NOT NULL,
  origin text NOT NULL,
  source_id uuid,
  suppression_created_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One change announced to one webhook: its event log entry. The payload is kept as it was signed,
-- and `id` is the `webhook-id` of every attempt, so receivers can drop repeats.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  change_id bigint NOT NULL,
  type text NOT NULL,
  payload text NOT NULL,
  created_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'attempting', 'success', 'failed')),
  -- Attempts made so far, over every round; a replay starts a new round of retries at `round_start`.
  attempt_count integer NOT NULL DEFAULT 0,
  round_start integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- A change is delivered to a webhook once, and the event log pages in change order.
  CONSTRAINT webhook_deliveries_webhook_change_key UNIQUE (webhook_id, change_id)
);

-- Deliveries still to be made: the sweeper's overdue scan and the oldest-undelivered gauge.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'attempting');
-- Finished deliveries past their retention.
CREATE INDEX webhook_deliveries_created_at_idx ON webhook_deliveries (created_at);

CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  -- 0 when no HTTP status came back: refused before sending, no connection, or the timeout.
  http_status_code integer NOT NULL,
  response text NOT NULL,
  sent_at timestamptz NOT NULL,
  duration_ms integer NOT NULL
);

CREATE INDEX webhook_attempts_delivery_id_idx ON webhook_attempts (delivery_id, id);

-- Statement-level, over the statement's transition table: one insert per statement, however many
-- rows it changed, and for an account without a subscribed webhook one probe of webhooks_account_id_idx.
-- ON CONFLICT DO NOTHING leaves an address already on the list out of the transition table, so
-- re-adding it announces nothing.
CREATE FUNCTION record_suppression_changes() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER suppressions_added AFTER INSERT ON suppressions
  REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_changes();

CREATE TRIGGER suppressions_removed AFTER DELETE ON suppressions
  REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_changes();

-- Down Migration
DROP TRIGGER suppressions_removed ON suppressions;
DROP TRIGGER suppressions_added ON suppressions;
DROP FUNCTION record_suppression_changes();
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE suppression_changes;
DROP TABLE webhooks;
