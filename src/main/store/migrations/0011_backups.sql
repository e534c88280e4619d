-- Portal data backups (src/main/backups/, its only writer): one row per backup this computer
-- asked for, downloaded, or saw in the service's history. No access code and no download URL is
-- ever stored: the code is the archive's password (kept, when the admin opts in, in the OS
-- keychain), and the URL is read again from the service's status when it is needed.
CREATE TABLE backups (
  -- Never reused (AUTOINCREMENT): download links, comparisons and errors are keyed by it.
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id         TEXT NOT NULL,
  portal_id          TEXT NOT NULL,
  export_id          TEXT,              -- the service's id; null until it answered
  stage              TEXT NOT NULL,     -- src/shared/ipc/areas/backups.ts BackupStage
  attachment_needed  INTEGER NOT NULL DEFAULT 0,
  reused             INTEGER NOT NULL DEFAULT 0,
  scheduled          INTEGER NOT NULL DEFAULT 0,
  requested_time     TEXT,
  completed_time     TEXT,
  requested_by       TEXT,
  created_at         TEXT NOT NULL,     -- when this computer asked (or first saw it)
  total_bytes        INTEGER,
  downloaded_bytes   INTEGER,
  resumed            INTEGER NOT NULL DEFAULT 0,
  etag               TEXT,              -- the download's validator, for If-Range on resume
  sha256             TEXT,
  file               TEXT,              -- under <data dir>/backups/, forward slashes
  verification       TEXT,              -- JSON: src/shared/ipc/areas/backups.ts Verification
  on_service         INTEGER,           -- 1 listed by the service's history, 0 not, null unknown
  problem            TEXT
);
CREATE UNIQUE INDEX backups_export ON backups (portal_id, export_id);

-- Daily or weekly backups of a portal, at a local hour, keeping the last `keep`.
CREATE TABLE backup_schedules (
  portal_id    TEXT PRIMARY KEY,
  frequency    TEXT NOT NULL,
  hour         INTEGER NOT NULL,
  weekday      INTEGER NOT NULL,
  keep         INTEGER NOT NULL,
  set_at       TEXT NOT NULL,
  last_run_at  TEXT
);
