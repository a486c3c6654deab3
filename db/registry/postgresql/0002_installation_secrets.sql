-- What every instance of a shared registry must hold alike and nobody may
-- read: the pepper of client secrets and the token-signing private keys. An
-- SQLite registry keeps them as files in its data directory, so this file has
-- no SQLite twin. Each value is sealed (AES-256-GCM, auth/key_encryption.h)
-- under the key-encryption key every instance reads from its own file; the
-- associated data is the row's table and key ("installation_secrets/<name>",
-- "signing_keys/<kid>"), so a sealed value copied to another row does not
-- open. The row 'key-check' holds a known value sealed under the same key: a
-- wrong key file is told apart from a damaged row.

CREATE TABLE installation_secrets (
  name TEXT PRIMARY KEY CHECK (name IN ('key-check', 'client-secret-pepper')),
  sealed BYTEA NOT NULL,
  created_at BIGINT NOT NULL
);

-- One row per key. published_at: in the JWKS, and its tokens accepted, from
-- then; signs_from: signs from then (NULL: published only, a next key);
-- retired_at: neither published nor accepted from then (NULL: not retired).
-- The active key is the one with the latest signs_from that has come.
CREATE TABLE signing_keys (
  kid TEXT PRIMARY KEY CHECK (length(kid) = 43),
  algorithm TEXT NOT NULL CHECK (algorithm IN ('ES256', 'RS256')),
  sealed_private_key BYTEA NOT NULL,
  published_at BIGINT NOT NULL,
  signs_from BIGINT CHECK (signs_from IS NULL OR signs_from >= published_at),
  retired_at BIGINT CHECK (retired_at IS NULL OR retired_at >= published_at)
);
