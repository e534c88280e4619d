-- Sign-in (src/main/auth/): service profiles the user added, accounts, the portals each account
-- reaches, and the per-refresh-token ledger of access tokens. No secret is ever stored here: the
-- refresh token and the client secret live in the OS keychain, access tokens only in memory.

-- Profiles for the real service, as the user pasted them (src/shared/serviceProfile.ts). The
-- embedded demo's profile is built at run time (its ports change every launch) and is not stored.
CREATE TABLE service_profiles (
  id       TEXT PRIMARY KEY,
  profile  TEXT NOT NULL CHECK (json_valid(profile)),
  added_at TEXT NOT NULL
) STRICT;

-- An account: a service profile + a data center + a client registration + the user's portals.
CREATE TABLE accounts (
  id               TEXT PRIMARY KEY,
  profile_id       TEXT NOT NULL,
  dc               TEXT NOT NULL,                 -- the token response's `location`
  api_domain       TEXT NOT NULL,                 -- the token response's `api_domain`: every API call goes there
  accounts_url     TEXT NOT NULL,                 -- where the code was exchanged: refresh and revoke go there too
  client_id        TEXT NOT NULL,
  redirect_uri     TEXT,                          -- NULL for a Self Client grant
  kind             TEXT NOT NULL CHECK (kind IN ('browser', 'self_client', 'demo')),
  scopes           TEXT NOT NULL CHECK (json_valid(scopes)),  -- granted, as a JSON array
  label            TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('signed_in', 'signed_out')),
  status_message   TEXT,                          -- why it is signed out, in words for the user
  -- Names the current refresh token (its keychain entry and its ledger) without holding it;
  -- NULL once signed out.
  refresh_token_id TEXT,
  active           INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
) STRICT;
-- One active account at a time in the UI.
CREATE UNIQUE INDEX accounts_one_active ON accounts (active) WHERE active = 1;

CREATE TABLE account_portals (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  portal_id  TEXT NOT NULL,
  name       TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  position   INTEGER NOT NULL,
  PRIMARY KEY (account_id, portal_id)
) STRICT;

-- When each access token was asked for, per refresh token: "max 10 access tokens from one refresh
-- token per 10 minutes", and the 11th silently deletes the first. Kept across restarts so a
-- relaunch cannot spend the window twice; rows older than the window are pruned on write.
CREATE TABLE access_token_ledger (
  refresh_token_id TEXT    NOT NULL,
  issued_at        INTEGER NOT NULL              -- epoch ms, taken before the request was sent
) STRICT;
CREATE INDEX access_token_ledger_token ON access_token_ledger (refresh_token_id, issued_at);
