-- Up Migration
-- A list sent over HTTP (`POST /suppressions/imports`): read by the API process that received it,
-- queued in batch jobs, and reported on by `GET /suppressions/imports/{id}` from any process.
-- `status` is where the reading stands: `reading` while the body arrives, `processing` once every
-- line is queued, `failed` when the body could not be read to its end. `completed` is not stored:
-- an import whose jobs have all finished is complete.
CREATE TABLE imports (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  origin text NOT NULL CHECK (origin IN ('bounce', 'complaint', 'manual')),
  format text NOT NULL CHECK (format IN ('csv', 'ndjson', 'txt')),
  status text NOT NULL CHECK (status IN ('reading', 'processing', 'failed')),
  lines bigint NOT NULL DEFAULT 0,
  invalid bigint NOT NULL DEFAULT 0,
  queued bigint NOT NULL DEFAULT 0,
  duplicates bigint NOT NULL DEFAULT 0,
  -- Batch jobs queued: the import is complete once that many have finished.
  jobs integer NOT NULL DEFAULT 0,
  -- The first invalid lines, `[{line, value?, reason}]`; the rest are only counted.
  invalid_lines jsonb NOT NULL DEFAULT '[]',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Moves while the body is read: a `reading` import that stops moving lost its upload.
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The maintenance sweep removes imports past their retention.
CREATE INDEX imports_created_at_idx ON imports (created_at);

-- One row per batch job of an import. The API writes it when it queues the job, the batch worker
-- when the job ends, whichever comes first; the worker's counts (or failure) are written once.
CREATE TABLE import_jobs (
  import_id uuid NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  job_id text NOT NULL,
  entries integer NOT NULL,
  added integer,
  already_present integer,
  duplicates integer,
  invalid integer,
  failed_reason text,
  finished_at timestamptz,
  PRIMARY KEY (import_id, job_id)
);

-- Down Migration
DROP TABLE import_jobs;
DROP TABLE imports;
