-- Up Migration
-- Feeds from the open-source MTAs: KumoMTA's log hook (its generated credentials, as Postmark's) and
-- Postal's webhooks (the public half of its RSA signing key).
ALTER TABLE feeds DROP CONSTRAINT feeds_provider_check;
ALTER TABLE feeds ADD CONSTRAINT feeds_provider_check
  CHECK (provider IN ('ses', 'sendgrid', 'postmark', 'mailgun', 'resend', 'kumomta', 'postal'));

-- Down Migration
DELETE FROM feeds WHERE provider IN ('kumomta', 'postal');
ALTER TABLE feeds DROP CONSTRAINT feeds_provider_check;
ALTER TABLE feeds ADD CONSTRAINT feeds_provider_check
  CHECK (provider IN ('ses', 'sendgrid', 'postmark', 'mailgun', 'resend'));
