-- Up Migration
-- How far the IMAP poller has read each mailbox: the highest UID it queued (or set aside) under the
-- mailbox's UIDVALIDITY. A changed UIDVALIDITY makes its UIDs meaningless, and the poller reads the
-- mailbox again from the start; the messages' digests keep a second reading from acting twice.
CREATE TABLE mailbox_checkpoints (
  -- The mailbox as IMAP_URL names it, without a password: imaps://<user>@<host>:<port>/<folder>.
  mailbox text PRIMARY KEY,
  uid_validity bigint NOT NULL CHECK (uid_validity > 0),
  last_uid bigint NOT NULL CHECK (last_uid >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE mailbox_checkpoints;
