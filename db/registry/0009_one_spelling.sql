-- The registry's names take the specification's spelling, organization. The
-- eight migrations before this one are what deployed registries ran and stay
-- as they were (the runner refuses a database whose applied file names
-- differ), so this is the one file that still names the old spelling.
-- RENAME keeps every row; SQLite rewrites the foreign keys, index columns and
-- trigger bodies that name a renamed table or column. Index and trigger names
-- are recreated. audit_log is rebuilt because its definition carries a comment
-- in the old spelling; its rows, ids and append-only triggers are kept.
--
-- SQLite only: a PostgreSQL registry is created with these names.

ALTER TABLE organisations RENAME TO organizations;
ALTER TABLE organisation_settings RENAME TO organization_settings;

ALTER TABLE api_clients RENAME COLUMN organisation_id TO organization_id;
ALTER TABLE users RENAME COLUMN organisation_id TO organization_id;
ALTER TABLE client_usage_daily RENAME COLUMN organisation_id TO organization_id;
ALTER TABLE organization_settings RENAME COLUMN organisation_id TO organization_id;
ALTER TABLE user_placeholders RENAME COLUMN organisation_id TO organization_id;

DROP INDEX api_clients_by_organisation;
CREATE INDEX api_clients_by_organization ON api_clients (organization_id, created_at, id);
DROP INDEX users_by_organisation;
CREATE INDEX users_by_organization ON users (organization_id, created_at, id);
DROP INDEX client_usage_daily_by_organisation;
CREATE INDEX client_usage_daily_by_organization ON client_usage_daily (organization_id, day);
DROP INDEX user_placeholders_by_organisation;
CREATE INDEX user_placeholders_by_organization ON user_placeholders (organization_id, created_at, id);

DROP TRIGGER organisations_standing_on_update;
CREATE TRIGGER organizations_standing_on_update AFTER UPDATE OF id, plan, subscription ON organizations
WHEN OLD.id IS NOT NEW.id OR OLD.plan IS NOT NEW.plan OR OLD.subscription IS NOT NEW.subscription
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
END;

DROP TRIGGER organisations_standing_on_delete;
CREATE TRIGGER organizations_standing_on_delete AFTER DELETE ON organizations
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
END;

CREATE TABLE audit_log_renamed (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL CHECK (length(actor) BETWEEN 1 AND 300),
  action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
  target TEXT NOT NULL CHECK (length(target) <= 300),
  -- NULL for a change outside any organization (an operator's account).
  organization_id TEXT,
  -- The client's address; "local" for codepayload-admin.
  address TEXT NOT NULL CHECK (length(address) BETWEEN 1 AND 64),
  result TEXT NOT NULL CHECK (result IN ('success', 'refused', 'failed')),
  detail TEXT NOT NULL CHECK (length(detail) <= 1000)
) STRICT;
INSERT INTO audit_log_renamed (id, at, actor, action, target, organization_id, address, result, detail)
  SELECT id, at, actor, action, target, organisation_id, address, result, detail FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_renamed RENAME TO audit_log;
CREATE INDEX audit_log_by_organization ON audit_log (organization_id, at, id);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
