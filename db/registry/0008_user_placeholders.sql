-- A user an organisation's owner added through the dashboard whose email
-- already names an account elsewhere in the installation (a user of another
-- organisation, or an operator): refusing it would tell the owner that the
-- account exists. It is kept here instead and listed among the organisation's
-- users like a user who has not signed in yet, with the same "user.create"
-- audit record; it is no account (no password, no session, no sign-in) and is
-- removed like a user. A real account created for the same email in the same
-- organisation takes its place. Ids share the users' form and never collide
-- with one (the application checks both tables).
--
-- Portable SQL but for STRICT [PostgreSQL: drop it] and INTEGER for Unix
-- seconds [BIGINT].

CREATE TABLE user_placeholders (
  id TEXT PRIMARY KEY CHECK (length(id) = 20 AND substr(id, 1, 4) = 'usr_'),
  organisation_id TEXT NOT NULL REFERENCES organisations (id),
  email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_key TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  created_at INTEGER NOT NULL,
  UNIQUE (organisation_id, email_key)
) STRICT;

CREATE INDEX user_placeholders_by_organisation ON user_placeholders (organisation_id, created_at, id);
