-- Up Migration

-- The whole Sign-In With Solana request the server issued with each nonce: the proof is checked
-- against this, never against the client's copy. Rows issued before this column have none and
-- are refused (they expire within minutes anyway).
ALTER TABLE wallet_nonces ADD COLUMN input jsonb;

-- Down Migration

ALTER TABLE wallet_nonces DROP COLUMN input;
