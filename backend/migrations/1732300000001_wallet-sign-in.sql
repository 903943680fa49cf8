-- Up Migration

-- Single-use Sign-In With Solana nonces, issued by the server for one address.
CREATE TABLE wallet_nonces (
  nonce      text PRIMARY KEY,
  address    text NOT NULL,
  domain     text NOT NULL,
  issued_at  timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX wallet_nonces_expiry_idx ON wallet_nonces (expires_at);

-- Down Migration

DROP TABLE wallet_nonces;
