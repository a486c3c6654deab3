-- Blocking a client revokes every token issued before the block, also after
-- the client is unblocked: a token whose iat is earlier than
-- tokens_not_before (Unix seconds) is refused. Blocking sets it to the second
-- after the block (a token issued in the block's own second is revoked too);
-- 0 for a client never blocked.

ALTER TABLE api_clients ADD COLUMN tokens_not_before INTEGER NOT NULL DEFAULT 0 CHECK (tokens_not_before >= 0);
