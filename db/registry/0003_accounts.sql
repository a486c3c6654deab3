-- People's accounts for the dashboard (issue 11): organisation users and the
-- installation's operators, their sessions and recovery codes, and the
-- append-only audit log. No secret is stored in plain but the TOTP secret
-- (an HMAC key must be read back): passwords as Argon2id PHC strings, session
-- ids and recovery codes as SHA-256 hex digests.
--
-- Portable SQL but for (PostgreSQL in brackets): STRICT [drop it];
-- INTEGER for Unix seconds [BIGINT]; audit_log.id INTEGER PRIMARY KEY, the
-- rowid, numbered in insertion order [BIGINT GENERATED ALWAYS AS IDENTITY];
-- the two triggers that keep audit_log append-only, written with SQLite's
-- RAISE [a trigger function raising an exception, or REVOKE UPDATE, DELETE
-- from the service's role]. Emails are unique through email_key (ASCII
-- letters lower-cased by the application), not a collation. An email names
-- one account across users and operators; the application checks the other
-- table inside the same transaction.

CREATE TABLE users (
  id TEXT PRIMARY KEY CHECK (length(id) = 20 AND substr(id, 1, 4) = 'usr_'),
  organisation_id TEXT NOT NULL REFERENCES organisations (id),
  email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_key TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  password_hash TEXT NOT NULL CHECK (substr(password_hash, 1, 10) = '$argon2id$'),
  -- base32, NULL while TOTP is off; the last step accepted (a code is used once).
  totp_secret TEXT,
  totp_last_step INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE INDEX users_by_organisation ON users (organisation_id, created_at, id);

CREATE TABLE operators (
  id TEXT PRIMARY KEY CHECK (length(id) = 20 AND substr(id, 1, 4) = 'opr_'),
  email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL CHECK (substr(password_hash, 1, 10) = '$argon2id$'),
  totp_secret TEXT,
  totp_last_step INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- A session belongs to a user or to an operator, never both.
CREATE TABLE sessions (
  id_digest TEXT PRIMARY KEY CHECK (length(id_digest) = 64),
  user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
  operator_id TEXT REFERENCES operators (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  CHECK ((user_id IS NULL) <> (operator_id IS NULL))
) STRICT;

CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_operator ON sessions (operator_id);

-- Unused recovery codes; a code's row is deleted when it is used.
CREATE TABLE recovery_codes (
  code_digest TEXT PRIMARY KEY CHECK (length(code_digest) = 64),
  user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
  operator_id TEXT REFERENCES operators (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  CHECK ((user_id IS NULL) <> (operator_id IS NULL))
) STRICT;

CREATE INDEX recovery_codes_by_user ON recovery_codes (user_id);
CREATE INDEX recovery_codes_by_operator ON recovery_codes (operator_id);

-- Who did what to which object of which organisation, when, from where, and
-- how it ended. No foreign keys: a refused change may name an organisation
-- that does not exist, and the log outlives what it names.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL CHECK (length(actor) BETWEEN 1 AND 300),
  action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
  target TEXT NOT NULL CHECK (length(target) <= 300),
  -- NULL for a change outside any organisation (an operator's account).
  organisation_id TEXT,
  -- The client's address; "local" for codepayload-admin.
  address TEXT NOT NULL CHECK (length(address) BETWEEN 1 AND 64),
  result TEXT NOT NULL CHECK (result IN ('success', 'refused', 'failed')),
  detail TEXT NOT NULL CHECK (length(detail) <= 1000)
) STRICT;

CREATE INDEX audit_log_by_organisation ON audit_log (organisation_id, at, id);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
