-- Up Migration
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (char_length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  permission text NOT NULL CHECK (permission IN ('full_access', 'sending_access')),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

CREATE INDEX api_keys_account_id_idx ON api_keys (account_id);

CREATE TABLE suppressions (
  id uuid NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  origin text NOT NULL CHECK (origin IN ('bounce', 'complaint', 'manual')),
  source_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Every query is scoped to an account: the key serves lookup by id and newest-first keyset pages
  -- (ids are UUIDv7, so id order is time order), and leads with the column the table would be
  -- partitioned or distributed on.
  CONSTRAINT suppressions_pkey PRIMARY KEY (account_id, id),
  -- Serves lookup by (account, email) and makes re-adding idempotent.
  CONSTRAINT suppressions_account_email_key UNIQUE (account_id, email)
);

-- Newest-first pages under the origin filter.
CREATE INDEX suppressions_account_origin_id_idx ON suppressions (account_id, origin, id DESC);

-- Down Migration
DROP TABLE suppressions;
DROP TABLE api_keys;
DROP TABLE accounts;
