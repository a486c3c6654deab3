-- The registry view now authenticates token requests from memory (issue 10,
-- D-T6): it holds each client's secret digest and scopes as well as its
-- standing, so a change to either must move the counter of 0006 too. Neither
-- changes through the service today (a secret is never replaced: a
-- replacement is a new client; scopes are set at creation), but an operator
-- may still edit a row by hand, and the view must not keep the old value.
--
-- Portable SQL but for (PostgreSQL in brackets): the trigger body, written
-- inline with SQLite's BEGIN ... END [CREATE TRIGGER ... FOR EACH ROW WHEN
-- (...) EXECUTE FUNCTION the function of 0006]; IS NOT between OLD and NEW
-- [IS DISTINCT FROM].

DROP TRIGGER api_clients_standing_on_update;

CREATE TRIGGER api_clients_standing_on_update
AFTER UPDATE OF id, organisation_id, state, tokens_not_before, scopes, secret_digest ON api_clients
WHEN OLD.id IS NOT NEW.id OR OLD.organisation_id IS NOT NEW.organisation_id OR OLD.state IS NOT NEW.state
  OR OLD.tokens_not_before IS NOT NEW.tokens_not_before OR OLD.scopes IS NOT NEW.scopes
  OR OLD.secret_digest IS NOT NEW.secret_digest
BEGIN
  UPDATE client_standing_version SET version = version + 1 WHERE id = 1;
END;
