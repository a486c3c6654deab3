-- The dictionary release every instance of a shared registry serves
-- (codepayload-import --publish): the rule database the importer made from a
-- GS1 release, as its SQLite file, with that file's SHA-256, by which an
-- instance knows whether it serves it already. The newest row is in force;
-- the older ones stay as the record of what was served when. An SQLite
-- registry has no twin: its one instance reads the rule database the importer
-- writes in its data directory.

CREATE TABLE published_releases (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  release TEXT NOT NULL,
  rules_database BYTEA NOT NULL,
  sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
  published_at BIGINT NOT NULL
);
