-- Up Migration
-- Sessions of the web console: a sign-in with an API key gives a cookie, and only the cookie's
-- SHA-256 is kept. A session lasts until it expires, is signed out (its row deleted), or its key is
-- revoked (every lookup joins the key) or deleted (the row goes with it).
CREATE TABLE console_sessions (
  id uuid PRIMARY KEY,
  token_hash bytea NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  api_key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  CHECK (expires_at > created_at)
);

-- Expired sessions are deleted at each sign-in: a range of this index.
CREATE INDEX console_sessions_expires_at_idx ON console_sessions (expires_at);
-- A revoked or deleted key's sessions: the foreign key's cascade reads them by key.
CREATE INDEX console_sessions_api_key_id_idx ON console_sessions (api_key_id);

-- Down Migration
DROP TABLE console_sessions;
