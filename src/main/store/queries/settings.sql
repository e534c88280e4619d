-- name: all
SELECT key, value FROM settings;

-- name: upsert
INSERT INTO settings (key, value, updated_at)
VALUES (@key, @value, @updatedAt)
ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at;
