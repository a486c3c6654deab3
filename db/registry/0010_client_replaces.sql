-- A client made by "Create replacement" names the client it replaces, so that
-- the two rows, which share a name and scopes, can be told apart and the old
-- one deleted once the new one is in use. NULL for any other client, and
-- cleared on both sides when either is deleted: a deleted client holds no
-- link (the CHECK) and none points at it (the registry clears it in the
-- deletion's transaction). At most one client replaces a given client (the
-- unique index). Not part of the clients' standing: the standing triggers
-- (0006) do not name this column, so setting or clearing it moves no version.
--
-- Portable SQL but for (PostgreSQL, db/registry/postgresql/0004): a column
-- CHECK naming other columns [a table constraint].

ALTER TABLE api_clients ADD COLUMN replaces TEXT REFERENCES api_clients (id)
  CHECK (replaces IS NULL OR (replaces <> id AND state <> 'deleted'));

CREATE UNIQUE INDEX api_clients_by_replaces ON api_clients (replaces) WHERE replaces IS NOT NULL;
