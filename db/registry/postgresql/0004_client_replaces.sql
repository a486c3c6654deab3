-- A client made by "Create replacement" names the client it replaces: the
-- twin of db/registry/0010_client_replaces.sql, which says why.

ALTER TABLE api_clients ADD COLUMN replaces TEXT REFERENCES api_clients (id);

ALTER TABLE api_clients ADD CONSTRAINT api_clients_replaces_check
  CHECK (replaces IS NULL OR (replaces <> id AND state <> 'deleted'));

CREATE UNIQUE INDEX api_clients_by_replaces ON api_clients (replaces) WHERE replaces IS NOT NULL;
