-- The user's "Work offline" switch (src/main/connectivity/connectivity.ts). The table was the
-- outbox's until the switch got one owner (migration 0010).

-- name: setting
SELECT value FROM connectivity_settings WHERE key = ?;

-- name: writeSetting
INSERT INTO connectivity_settings (key, value) VALUES (?, ?)
ON CONFLICT (key) DO UPDATE SET value = excluded.value;
