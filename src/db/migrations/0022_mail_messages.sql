-- Up Migration
-- Every message the service read from a mail server, a mailbox or an upload: one row per distinct
-- message (its bytes' SHA-256), with what it was read as and what came of each of its records. The
-- bytes themselves are not kept: the records and the events they gave are the evidence.
CREATE TABLE mail_messages (
  digest bytea PRIMARY KEY CHECK (octet_length(digest) = 32),
  -- The account it acted for; null when it acted for nobody (no valid return path).
  account_id uuid REFERENCES accounts (id) ON DELETE CASCADE,
  source text NOT NULL CHECK (source IN ('smtp', 'lmtp', 'imap', 'upload')),
  received_at timestamptz NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  format text NOT NULL,
  verified boolean NOT NULL,
  -- Why it acted for nobody; null when verified.
  unverified_reason text,
  records jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_messages_account ON mail_messages (account_id, received_at DESC) WHERE account_id IS NOT NULL;
CREATE INDEX mail_messages_received ON mail_messages (received_at);

-- Down Migration
DROP TABLE mail_messages;
