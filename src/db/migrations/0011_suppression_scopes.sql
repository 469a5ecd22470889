-- Up Migration
-- An entry belongs to the whole account or to one named scope (a message stream, a newsletter): the
-- same address may have an entry of each. The whole account is stored as '' and shown as null:
-- equality on '' is indexable and an ON CONFLICT arbiter, where NULL needs IS NOT DISTINCT FROM,
-- which is neither. A default of a constant rewrites nothing; the CHECK reads the table once.
ALTER TABLE suppressions ADD COLUMN scope text NOT NULL DEFAULT ''
  CONSTRAINT suppressions_scope_check CHECK (scope = '' OR scope ~ '^[a-z0-9._-]{1,64}$');

-- Serves lookup by (account, email), the scopes after it, and makes re-adding idempotent per scope.
ALTER TABLE suppressions ADD CONSTRAINT suppressions_account_email_scope_key UNIQUE (account_id, email, scope);
ALTER TABLE suppressions DROP CONSTRAINT suppressions_account_email_key;

-- Newest-first pages of one named scope; entries of the whole account are left out of it, so adding
-- them (nearly every add) does not pay for it.
CREATE INDEX suppressions_account_scope_id_idx ON suppressions (account_id, scope, id DESC) WHERE scope <> '';

-- The scope of the entry an event made or found (or would have made), and of the entry a removal removed.
ALTER TABLE suppression_events ADD COLUMN scope text NOT NULL DEFAULT '';

ALTER TABLE suppression_changes ADD COLUMN scope text NOT NULL DEFAULT '';

-- Where a complaint about a message of a named scope puts its address: in that scope (`message`), or
-- for the whole account (`global`).
ALTER TABLE account_settings ADD COLUMN complaint_scope text NOT NULL DEFAULT 'message'
  CHECK (complaint_scope IN ('message', 'global'));

-- Where a feed reads the scope of each message (a stream, a group, a tag); null: it reads none.
ALTER TABLE feeds ADD COLUMN scope_from text;

-- The scope an import's entries are for.
ALTER TABLE imports ADD COLUMN scope text NOT NULL DEFAULT '';

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

-- Down Migration
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
ALTER TABLE imports DROP COLUMN scope;
ALTER TABLE feeds DROP COLUMN scope_from;
ALTER TABLE account_settings DROP COLUMN complaint_scope;
ALTER TABLE suppression_changes DROP COLUMN scope;
ALTER TABLE suppression_events DROP COLUMN scope;
DROP INDEX suppressions_account_scope_id_idx;
-- One entry per address again: the entries of named scopes cannot be kept under that key.
DELETE FROM suppressions WHERE scope <> '';
ALTER TABLE suppressions ADD CONSTRAINT suppressions_account_email_key UNIQUE (account_id, email);
ALTER TABLE suppressions DROP CONSTRAINT suppressions_account_email_scope_key;
ALTER TABLE suppressions DROP COLUMN scope;
