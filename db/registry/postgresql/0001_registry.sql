-- The client registry in PostgreSQL: the schema the SQLite registry has after
-- db/registry/0001..0009, in one file, with the final names. The SQLite files'
-- comments say why each table and column exists; this file says only how it
-- translates (their "[PostgreSQL: ...]" notes): no STRICT; BIGINT for every
-- SQLite INTEGER (seconds, counts, steps: SQLite's integers are 64-bit);
-- BYTEA for BLOB; audit_log.id an identity column (SQLite's rowid, numbered
-- in insertion order), and a `rowid` identity column on the two tables whose
-- listings follow SQLite's rowid (organizations, api_clients), so that the
-- stores' queries are one SQL for both; the triggers as trigger functions,
-- with IS DISTINCT FROM for SQLite's IS NOT. A later change to the registry adds a file here
-- and one in db/registry/ together.

CREATE TABLE organizations (
  id TEXT PRIMARY KEY CHECK (length(id) = 20 AND substr(id, 1, 4) = 'org_'),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  plan TEXT NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'enterprise')),
  subscription TEXT NOT NULL CHECK (subscription IN ('active', 'inactive')),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
);

CREATE TABLE api_clients (
  id TEXT PRIMARY KEY CHECK (length(id) = 35 AND substr(id, 1, 11) = 'svc_client_'),
  organization_id TEXT NOT NULL REFERENCES organizations (id),
  name TEXT NOT NULL CHECK (length(name) <= 200),
  scopes TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active', 'blocked', 'deleted')),
  secret_digest BYTEA CHECK ((state = 'deleted' AND secret_digest IS NULL)
                             OR (state <> 'deleted' AND length(secret_digest) = 32)),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  tokens_not_before BIGINT NOT NULL DEFAULT 0 CHECK (tokens_not_before >= 0),
  created_by TEXT NOT NULL DEFAULT '' CHECK (length(created_by) <= 300),
  last_used_at BIGINT CHECK (last_used_at IS NULL OR last_used_at % 60 = 0),
  rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
);

CREATE INDEX api_clients_by_organization ON api_clients (organization_id, created_at, id);

CREATE TABLE users (
  id TEXT PRIMARY KEY CHECK (length(id) = 20 AND substr(id, 1, 4) = 'usr_'),
  organization_id TEXT NOT NULL REFERENCES organizations (id),
  email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_key TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  password_hash TEXT NOT NULL CHECK (substr(password_hash, 1, 10) = '$argon2id$'),
  totp_secret TEXT,
  totp_last_step BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE INDEX users_by_organization ON users (organization_id, created_at, id);

CREATE TABLE operators (
  id TEXT PRIMARY KEY CHECK (length(id) = 20 AND substr(id, 1, 4) = 'opr_'),
  email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL CHECK (substr(password_hash, 1, 10) = '$argon2id$'),
  totp_secret TEXT,
  totp_last_step BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE sessions (
  id_digest TEXT PRIMARY KEY CHECK (length(id_digest) = 64),
  user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
  operator_id TEXT REFERENCES operators (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  CHECK ((user_id IS NULL) <> (operator_id IS NULL))
);

CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_operator ON sessions (operator_id);

CREATE TABLE recovery_codes (
  code_digest TEXT PRIMARY KEY CHECK (length(code_digest) = 64),
  user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
  operator_id TEXT REFERENCES operators (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  CHECK ((user_id IS NULL) <> (operator_id IS NULL))
);

CREATE INDEX recovery_codes_by_user ON recovery_codes (user_id);
CREATE INDEX recovery_codes_by_operator ON recovery_codes (operator_id);

CREATE TABLE audit_log (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at BIGINT NOT NULL,
  actor TEXT NOT NULL CHECK (length(actor) BETWEEN 1 AND 300),
  action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
  target TEXT NOT NULL CHECK (length(target) <= 300),
  organization_id TEXT,
  address TEXT NOT NULL CHECK (length(address) BETWEEN 1 AND 64),
  result TEXT NOT NULL CHECK (result IN ('success', 'refused', 'failed')),
  detail TEXT NOT NULL CHECK (length(detail) <= 1000)
);

CREATE INDEX audit_log_by_organization ON audit_log (organization_id, at, id);

CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
-- SQLite has no TRUNCATE; PostgreSQL's skips row triggers, so it is refused
-- by a statement trigger of its own.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();

CREATE TABLE client_usage_daily (
  client_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  day TEXT NOT NULL CHECK (length(day) = 10),
  tokens_issued BIGINT NOT NULL DEFAULT 0 CHECK (tokens_issued >= 0),
  codes_accepted BIGINT NOT NULL DEFAULT 0 CHECK (codes_accepted >= 0),
  codes_rejected BIGINT NOT NULL DEFAULT 0 CHECK (codes_rejected >= 0),
  PRIMARY KEY (client_id, day)
);

CREATE INDEX client_usage_daily_by_organization ON client_usage_daily (organization_id, day);

CREATE TABLE organization_settings (
  organization_id TEXT PRIMARY KEY REFERENCES organizations (id),
  require_totp BIGINT NOT NULL CHECK (require_totp IN (0, 1)),
  updated_at BIGINT NOT NULL
);

-- One row, id 1; moved by the triggers below exactly when SQLite's move it
-- (db/registry/0006, 0007 and 0009 say which changes count and why).
CREATE TABLE client_standing_version (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  version BIGINT NOT NULL
);

INSERT INTO client_standing_version (id, version) VALUES (1, 0);

CREATE FUNCTION client_standing_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_clients_standing_on_insert AFTER INSERT ON api_clients
  FOR EACH ROW EXECUTE FUNCTION client_standing_version_bump();

CREATE TRIGGER api_clients_standing_on_delete AFTER DELETE ON api_clients
  FOR EACH ROW EXECUTE FUNCTION client_standing_version_bump();

CREATE TRIGGER api_clients_standing_on_update
  AFTER UPDATE OF id, organization_id, state, tokens_not_before, scopes, secret_digest ON api_clients
  FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.organization_id IS DISTINCT FROM NEW.organization_id
        OR OLD.state IS DISTINCT FROM NEW.state OR OLD.tokens_not_before IS DISTINCT FROM NEW.tokens_not_before
        OR OLD.scopes IS DISTINCT FROM NEW.scopes OR OLD.secret_digest IS DISTINCT FROM NEW.secret_digest)
  EXECUTE FUNCTION client_standing_version_bump();

CREATE TRIGGER organizations_standing_on_update AFTER UPDATE OF id, plan, subscription ON organizations
  FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.plan IS DISTINCT FROM NEW.plan
        OR OLD.subscription IS DISTINCT FROM NEW.subscription)
  EXECUTE FUNCTION client_standing_version_bump();

CREATE TRIGGER organizations_standing_on_delete AFTER DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION client_standing_version_bump();

CREATE TABLE user_placeholders (
  id TEXT PRIMARY KEY CHECK (length(id) = 20 AND substr(id, 1, 4) = 'usr_'),
  organization_id TEXT NOT NULL REFERENCES organizations (id),
  email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_key TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  created_at BIGINT NOT NULL,
  UNIQUE (organization_id, email_key)
);

CREATE INDEX user_placeholders_by_organization ON user_placeholders (organization_id, created_at, id);
