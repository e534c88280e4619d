-- name: createTable
CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL,
  sha256     TEXT    NOT NULL,
  applied_at TEXT    NOT NULL
) STRICT;

-- name: listApplied
SELECT version, name, sha256 FROM schema_migrations ORDER BY version;

-- name: recordApplied
INSERT INTO schema_migrations (version, name, sha256, applied_at)
VALUES (@version, @name, @sha256, @appliedAt);
