-- Up Migration
-- A recipient's own one-click unsubscribe (RFC 8058) is an entry of origin `unsubscribe`.
ALTER TABLE suppressions DROP CONSTRAINT suppressions_origin_check;
ALTER TABLE suppressions ADD CONSTRAINT suppressions_origin_check
  CHECK (origin IN ('bounce', 'complaint', 'manual', 'unsubscribe')) NOT VALID;
ALTER TABLE suppressions VALIDATE CONSTRAINT suppressions_origin_check;

-- The key an account's unsubscribe links are sealed with: made with its first link, and replaced
-- when the account rotates it, which ends every link made before.
CREATE TABLE unsubscribe_secrets (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  secret bytea NOT NULL CHECK (octet_length(secret) = 32),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE unsubscribe_secrets;
DELETE FROM suppressions WHERE origin = 'unsubscribe';
ALTER TABLE suppressions DROP CONSTRAINT suppressions_origin_check;
ALTER TABLE suppressions ADD CONSTRAINT suppressions_origin_check CHECK (origin IN ('bounce', 'complaint', 'manual'));
