-- An organisation's dashboard settings (issue 11): whether its users must
-- sign in with TOTP. A row appears when an owner first changes a setting; no
-- row means the defaults. Portable SQL but for STRICT [PostgreSQL: drop it]
-- and INTEGER for Unix seconds [BIGINT].

CREATE TABLE organisation_settings (
  organisation_id TEXT PRIMARY KEY REFERENCES organisations (id),
  require_totp INTEGER NOT NULL CHECK (require_totp IN (0, 1)),
  updated_at INTEGER NOT NULL
) STRICT;
