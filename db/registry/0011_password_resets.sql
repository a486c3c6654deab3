-- An owner's reset of a user's password: the digest (SHA-256, 64 hex digits)
-- of a one-time reset code the owner hands to the user, and when it expires.
-- While a code is set, the user's current password no longer signs in; an
-- expired code keeps it so (an owner resets again), and completing the reset
-- with a valid code sets a new password and clears both columns, so each
-- code works once. The code itself is never stored. At most one code per
-- user (a new reset replaces it) and no two users share a digest (the
-- unique index, which also finds the user of a code).
--
-- Portable SQL but for (PostgreSQL, db/registry/postgresql/0005): a column
-- CHECK naming other columns [a table constraint], INTEGER for Unix seconds
-- [BIGINT].

ALTER TABLE users ADD COLUMN reset_code_digest TEXT
  CHECK (reset_code_digest IS NULL OR length(reset_code_digest) = 64);
ALTER TABLE users ADD COLUMN reset_expires_at INTEGER
  CHECK ((reset_expires_at IS NULL) = (reset_code_digest IS NULL));

CREATE UNIQUE INDEX users_by_reset_code ON users (reset_code_digest) WHERE reset_code_digest IS NOT NULL;
