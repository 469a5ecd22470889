-- Up Migration
-- The check's entry cache (src/check-filter/entry-cache.ts) reads the same changes as the filter and
-- drops the answers a change makes wrong. So a removal now names the keys it removed (up to 1,000 a
-- row, as the additions do; `removed` still counts them), and a change of an account's allowlist,
-- which decides whether its entries stop a send, is written here too. A removal row without keys
-- (written before this migration) tells a reader only how many went, and it drops everything.
ALTER TABLE suppression_key_changes ADD COLUMN allowlist_account_ids uuid[];

CREATE OR REPLACE FUNCTION record_suppression_key_removals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO suppression_key_changes (account_ids, emails, scopes, removed)
  SELECT array_agg(account_id), array_agg(email), array_agg(scope), count(*)
  FROM (SELECT account_id, email, scope, (row_number() OVER () - 1) / 1000 AS chunk FROM changed_rows) keyed
  GROUP BY chunk;
  RETURN NULL;
END
$$;

CREATE FUNCTION record_allowlist_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO suppression_key_changes (allowlist_account_ids)
  SELECT array_agg(DISTINCT account_id) FROM changed_rows HAVING count(*) > 0;
  RETURN NULL;
END
$$;

CREATE TRIGGER allowlist_rules_added AFTER INSERT ON allowlist_rules
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_allowlist_changes();

-- A rule's account never changes: the new rows name the same accounts as the old.
CREATE TRIGGER allowlist_rules_updated AFTER UPDATE ON allowlist_rules
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_allowlist_changes();

CREATE TRIGGER allowlist_rules_removed AFTER DELETE ON allowlist_rules
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_allowlist_changes();

-- Down Migration
DROP TRIGGER allowlist_rules_removed ON allowlist_rules;
DROP TRIGGER allowlist_rules_updated ON allowlist_rules;
DROP TRIGGER allowlist_rules_added ON allowlist_rules;
DROP FUNCTION record_allowlist_changes();
CREATE OR REPLACE FUNCTION record_suppression_key_removals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO suppression_key_changes (removed) SELECT count(*) FROM changed_rows HAVING count(*) > 0;
  RETURN NULL;
END
$$;
ALTER TABLE suppression_key_changes DROP COLUMN allowlist_account_ids;
