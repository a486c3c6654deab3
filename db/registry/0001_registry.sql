-- The client registry: organisations with their plan and subscription, and
-- their API clients. Client secrets are never stored: only
-- HMAC-SHA-256(pepper, secret), and the pepper lives outside the database.
-- Deleted clients stay as tombstones (digest wiped) so an id is never reused.

CREATE TABLE organisations (
  id TEXT PRIMARY KEY CHECK (length(id) = 20 AND substr(id, 1, 4) = 'org_'),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  plan TEXT NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'enterprise')),
  subscription TEXT NOT NULL CHECK (subscription IN ('active', 'inactive')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE api_clients (
  id TEXT PRIMARY KEY CHECK (length(id) = 35 AND substr(id, 1, 11) = 'svc_client_'),
  organisation_id TEXT NOT NULL REFERENCES organisations (id),
  name TEXT NOT NULL CHECK (length(name) <= 200),
  -- Space-delimited scope tokens, in the order given at creation.
  scopes TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active', 'blocked', 'deleted')),
  secret_digest BLOB CHECK ((state = 'deleted' AND secret_digest IS NULL)
                            OR (state <> 'deleted' AND length(secret_digest) = 32)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE INDEX api_clients_by_organisation ON api_clients (organisation_id, created_at, id);
