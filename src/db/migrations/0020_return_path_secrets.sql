-- Up Migration
-- The keys an account's VERP return paths are signed with. `id` is the short random id a return
-- path carries to name its secret (and so its account) in 4 bytes instead of a 16-byte account id.
-- The current secret has no `retired_at`; a rotation retires it, and it goes on verifying the
-- return paths made before until `valid_until`, so that the bounces of mail still queued count.
CREATE TABLE return_path_secrets (
  id bytea PRIMARY KEY CHECK (octet_length(id) = 4),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  secret bytea NOT NULL CHECK (octet_length(secret) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz,
  valid_until timestamptz,
  CHECK ((retired_at IS NULL) = (valid_until IS NULL)),
  CHECK (valid_until >= retired_at)
);

-- One current secret per account. Verification finds a secret by its id; the account's own, for
-- when its previous one stops verifying and for the account's removal, by the account.
CREATE UNIQUE INDEX return_path_secrets_current ON return_path_secrets (account_id) WHERE retired_at IS NULL;
CREATE INDEX return_path_secrets_account ON return_path_secrets (account_id);

-- Down Migration
DROP TABLE return_path_secrets;
