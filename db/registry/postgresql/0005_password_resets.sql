-- An owner's reset of a user's password: the twin of
-- db/registry/0011_password_resets.sql, which says why.

ALTER TABLE users ADD COLUMN reset_code_digest TEXT
  CHECK (reset_code_digest IS NULL OR length(reset_code_digest) = 64);
ALTER TABLE users ADD COLUMN reset_expires_at BIGINT;

ALTER TABLE users ADD CONSTRAINT users_reset_check
  CHECK ((reset_expires_at IS NULL) = (reset_code_digest IS NULL));

CREATE UNIQUE INDEX users_by_reset_code ON users (reset_code_digest) WHERE reset_code_digest IS NOT NULL;
