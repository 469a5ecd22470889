-- Up Migration
-- The changes of the list's keys, for the membership filter that every API process keeps in front
-- of the check (src/check-filter/): whatever inserts, copies, updates or deletes `suppressions` rows,
-- in whatever transaction, writes here in that transaction. A row holds the keys one statement added
-- (up to 1,000 of them, as arrays), or how many rows one statement removed, and the id of its
-- top-level transaction: the filter reads the rows of the transactions its last snapshot did not
-- see, which a sequence's order cannot tell, since ids are drawn before their transactions commit
-- in another order.
CREATE TABLE suppression_key_changes (
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  id bigint GENERATED ALWAYS AS IDENTITY,
  account_ids uuid[],
  emails text[],
  scopes text[],
  removed integer NOT NULL DEFAULT 0,
  -- The row's own time, not its transaction's start: the retention keeps what is recent.
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- The filter's rounds read a range of transaction ids in this order; the retention deletes below one.
  CONSTRAINT suppression_key_changes_pkey PRIMARY KEY (xid, id)
);

-- Everything below `below` may have been deleted by the retention: a filter whose last snapshot
-- still waited on a transaction below it may have lost that transaction's keys, and is built again.
CREATE TABLE suppression_key_changes_pruned (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  below xid8 NOT NULL
);
INSERT INTO suppression_key_changes_pruned (below) VALUES ('0'::xid8);

-- Statement-level over the transition table, as the webhooks' outbox: one insert per 1,000 keys,
-- however the statement wrote them (INSERT, ON CONFLICT, COPY). An address already on the list is
-- not in the transition table, and adds nothing.
CREATE FUNCTION record_suppression_key_additions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO suppression_key_changes (account_ids, emails, scopes)
  SELECT array_agg(account_id), array_agg(email), array_agg(scope)
  FROM (SELECT account_id, email, scope, (row_number() OVER () - 1) / 1000 AS chunk FROM changed_rows) keyed
  GROUP BY chunk;
  RETURN NULL;
END
$$;

-- A removal leaves the filter's bits as they are; only its count is kept, for the stale share.
CREATE FUNCTION record_suppression_key_removals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO suppression_key_changes (removed) SELECT count(*) FROM changed_rows HAVING count(*) > 0;
  RETURN NULL;
END
$$;

CREATE TRIGGER suppressions_keys_added AFTER INSERT ON suppressions
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_key_additions();

-- Nothing changes an entry in place today; a statement that did would add its new key here.
CREATE TRIGGER suppressions_keys_updated AFTER UPDATE ON suppressions
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_key_additions();

CREATE TRIGGER suppressions_keys_removed AFTER DELETE ON suppressions
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_suppression_key_removals();

-- Down Migration
DROP TRIGGER suppressions_keys_removed ON suppressions;
DROP TRIGGER suppressions_keys_updated ON suppressions;
DROP TRIGGER suppressions_keys_added ON suppressions;
DROP FUNCTION record_suppression_key_removals();
DROP FUNCTION record_suppression_key_additions();
DROP TABLE suppression_key_changes_pruned;
DROP TABLE suppression_key_changes;
