-- Up Migration
-- Addresses, or whole domains, that are never suppressed: test inboxes, the company's own staff. A
-- rule's value is a normalised address or a lower-case domain; a domain covers its own addresses,
-- not its subdomains'.
CREATE TABLE allowlist_rules (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  value text NOT NULL CHECK (char_length(value) BETWEEN 1 AND 254),
  note text CHECK (char_length(note) BETWEEN 1 AND 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Serves "is this address covered" (the address, then its domain) and makes a rule unique.
  CONSTRAINT allowlist_rules_account_value_key UNIQUE (account_id, value)
);

-- An event about an allowlisted address is recorded, and suppresses nothing.
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_outcome_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_outcome_check CHECK (
  outcome IN ('suppressed', 'already_suppressed', 'not_suppressed', 'removed', 'suppressed_soft_bounce_threshold',
              'allowlisted')
) NOT VALID;
ALTER TABLE suppression_events VALIDATE CONSTRAINT suppression_events_outcome_check;

-- The addresses of an import's job that the allowlist kept off the list.
ALTER TABLE import_jobs ADD COLUMN allowlisted integer NOT NULL DEFAULT 0;

-- Down Migration
ALTER TABLE import_jobs DROP COLUMN allowlisted;
DELETE FROM suppression_events WHERE outcome = 'allowlisted';
ALTER TABLE suppression_events DROP CONSTRAINT suppression_events_outcome_check;
ALTER TABLE suppression_events ADD CONSTRAINT suppression_events_outcome_check CHECK (
  outcome IN ('suppressed', 'already_suppressed', 'not_suppressed', 'removed', 'suppressed_soft_bounce_threshold')
);
DROP TABLE allowlist_rules;
