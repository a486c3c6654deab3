-- Usage of the API clients (issue 11): who created each client, when it was
-- last used, and per client and UTC day the tokens issued and the codes
-- accepted and rejected. The service counts in memory on the request path and
-- adds its counts here in the background (D-D11, D-D12); several instances
-- may add to one row.
--
-- Portable SQL but for (PostgreSQL in brackets): STRICT [drop it]; INTEGER
-- for Unix seconds and counts [BIGINT].

-- The creator as the caller names it: "cli:<login>" for the admin CLI, the
-- user's email for the dashboard, '' for clients created before this column.
ALTER TABLE api_clients ADD COLUMN created_by TEXT NOT NULL DEFAULT '' CHECK (length(created_by) <= 300);

-- Unix seconds truncated to the minute; NULL while the client was never used.
ALTER TABLE api_clients ADD COLUMN last_used_at INTEGER CHECK (last_used_at IS NULL OR last_used_at % 60 = 0);

-- No foreign keys: a row is added in the background, possibly after its
-- client was deleted, and usage outlives nothing it names (clients are
-- tombstones, never removed).
CREATE TABLE client_usage_daily (
  client_id TEXT NOT NULL,
  organisation_id TEXT NOT NULL,
  -- The UTC day, 'YYYY-MM-DD'.
  day TEXT NOT NULL CHECK (length(day) = 10),
  tokens_issued INTEGER NOT NULL DEFAULT 0 CHECK (tokens_issued >= 0),
  codes_accepted INTEGER NOT NULL DEFAULT 0 CHECK (codes_accepted >= 0),
  codes_rejected INTEGER NOT NULL DEFAULT 0 CHECK (codes_rejected >= 0),
  PRIMARY KEY (client_id, day)
) STRICT;

CREATE INDEX client_usage_daily_by_organisation ON client_usage_daily (organisation_id, day);
