-- Up Migration
-- A provider's webhook endpoint for one account. `verification` holds what its requests are checked
-- with, in the form the check needs: SES topic ARNs, the SendGrid public key, the Mailgun signing key,
-- the Resend signing secret, or the Postmark user name and a SHA-256 digest of its generated password.
CREATE TABLE feeds (
  id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('ses', 'sendgrid', 'postmark', 'mailgun', 'resend')),
  verification jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX feeds_account_id_idx ON feeds (account_id);

-- The provider's id for the message an event is about, for tracing an entry back to the mail.
ALTER TABLE suppression_events ADD COLUMN provider_message_id text;

-- Down Migration
ALTER TABLE suppression_events DROP COLUMN provider_message_id;
DROP TABLE feeds;
