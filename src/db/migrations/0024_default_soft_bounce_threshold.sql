-- Up Migration
-- The soft-bounce threshold is on by default: 3 counted bounces within 30 days (DEFAULT_SETTINGS in
-- src/policy/settings.ts says why). An account without a row gets those values from the code; these
-- column defaults give the same ones to a row that an account's first change makes later, so a
-- change of its expiry, say, does not turn its threshold off.
--
-- Rows already here stay as they are. A row whose threshold is null may be an account that turned
-- it off on purpose, and nothing tells it apart from one that only changed something else: turning
-- the threshold on for it could suppress addresses it chose to keep mailing. Such an account takes
-- the default by setting it (`PATCH /settings/suppressions` with `{"soft_bounce_threshold": 3,
-- "soft_bounce_window_days": 30}`).
ALTER TABLE account_settings
  ALTER COLUMN soft_bounce_threshold SET DEFAULT 3,
  ALTER COLUMN soft_bounce_window_days SET DEFAULT 30;

-- Down Migration
ALTER TABLE account_settings
  ALTER COLUMN soft_bounce_threshold DROP DEFAULT,
  ALTER COLUMN soft_bounce_window_days SET DEFAULT 7;
