-- A change counter of the clients' standing (issue 10, D-T3): the bearer
-- path's in-memory view (auth/registry_view.h) reloads every client's status
-- when ClientRegistry::version() moves, and that version is this counter. The
-- triggers add 1 when, and only when, a row the view reads can change: a
-- client created, removed, or changed in its id, organisation, state or
-- tokens_not_before; an organisation changed in its id, plan or subscription,
-- or removed. Not on anything else: last_used_at and the usage rows (written
-- every usage.flushInterval under traffic), names, creators, scopes (the token
-- endpoint reads them itself), sessions, accounts, settings, the audit log.
-- No trigger on a new organisation: the foreign key lets no client name it
-- before it exists, and its clients' INSERT counts.
--
-- Portable SQL but for (PostgreSQL in brackets): STRICT [drop it]; INTEGER
-- [BIGINT]; the trigger bodies, written inline with SQLite's BEGIN ... END
-- [one trigger function doing the UPDATE and returning NULL, and CREATE
-- TRIGGER ... FOR EACH ROW WHEN (...) EXECUTE FUNCTION it]; IS NOT between
-- OLD and NEW [IS DISTINCT FROM].

-- One row, id 1.
CREATE TABLE client_standing_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
) STRICT;

INSERT INTO client_standing_version (id, version) VALUES (1, 0);

CREATE TRIGGER api_clients_standing_on_insert AFTER INSERT ON api_clients
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER api_clients_standing_on_delete AFTER DELETE ON api_clients
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER api_clients_standing_on_update
AFTER UPDATE OF id, organisation_id, state, tokens_not_before ON api_clients
WHEN OLD.id IS NOT NEW.id OR OLD.organisation_id IS NOT NEW.organisation_id OR OLD.state IS NOT NEW.state
  OR OLD.tokens_not_before IS NOT NEW.tokens_not_before
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER organisations_standing_on_update AFTER UPDATE OF id, plan, subscription ON organisations
WHEN OLD.id IS NOT NEW.id OR OLD.plan IS NOT NEW.plan OR OLD.subscription IS NOT NEW.subscription
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER organisations_standing_on_delete AFTER DELETE ON organisations
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
END;
