-- name: allAccounts
SELECT
  id, profile_id AS profileId, dc, api_domain AS apiDomain, accounts_url AS accountsUrl,
  client_id AS clientId, redirect_uri AS redirectUri, kind, scopes, label, status,
  status_message AS statusMessage, refresh_token_id AS refreshTokenId, active,
  created_at AS createdAt, updated_at AS updatedAt
FROM accounts
ORDER BY created_at, id;

-- name: insertAccount
INSERT INTO accounts (id, profile_id, dc, api_domain, accounts_url, client_id, redirect_uri, kind,
  scopes, label, status, status_message, refresh_token_id, active, created_at, updated_at)
VALUES (@id, @profileId, @dc, @apiDomain, @accountsUrl, @clientId, @redirectUri, @kind,
  @scopes, @label, 'signed_in', NULL, @refreshTokenId, 0, @now, @now);

-- name: updateSignIn
UPDATE accounts SET
  dc = @dc, api_domain = @apiDomain, accounts_url = @accountsUrl, client_id = @clientId,
  redirect_uri = @redirectUri, kind = @kind, scopes = @scopes, label = @label,
  status = 'signed_in', status_message = NULL, refresh_token_id = @refreshTokenId, updated_at = @now
WHERE id = @id;

-- name: markSignedOut
UPDATE accounts SET status = 'signed_out', status_message = @message, refresh_token_id = NULL,
  updated_at = @now
WHERE id = @id;

-- name: deleteAccount
DELETE FROM accounts WHERE id = @id;

-- name: clearActive
UPDATE accounts SET active = 0 WHERE active = 1;

-- name: setActive
UPDATE accounts SET active = 1 WHERE id = @id;

-- name: portalsOf
SELECT portal_id AS portalId, name, is_default AS isDefault
FROM account_portals WHERE account_id = @accountId ORDER BY position;

-- name: deletePortalsOf
DELETE FROM account_portals WHERE account_id = @accountId;

-- name: insertPortal
INSERT INTO account_portals (account_id, portal_id, name, is_default, position)
VALUES (@accountId, @portalId, @name, @isDefault, @position);

-- name: allProfiles
SELECT id, profile FROM service_profiles ORDER BY added_at, id;

-- name: upsertProfile
INSERT INTO service_profiles (id, profile, added_at) VALUES (@id, @profile, @now)
ON CONFLICT (id) DO UPDATE SET profile = excluded.profile;

-- name: ledgerSince
SELECT issued_at AS issuedAt FROM access_token_ledger
WHERE refresh_token_id = @refreshTokenId AND issued_at > @since
ORDER BY issued_at;

-- name: ledgerInsert
INSERT INTO access_token_ledger (refresh_token_id, issued_at) VALUES (@refreshTokenId, @issuedAt)
RETURNING rowid AS entryId;

-- name: ledgerMove
UPDATE access_token_ledger SET issued_at = @issuedAt WHERE rowid = @entryId;

-- name: ledgerRemove
DELETE FROM access_token_ledger WHERE rowid = @entryId;

-- name: ledgerPrune
DELETE FROM access_token_ledger WHERE issued_at <= @before;

-- name: ledgerForget
DELETE FROM access_token_ledger WHERE refresh_token_id = @refreshTokenId;
