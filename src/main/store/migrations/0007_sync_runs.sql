-- The log of sync runs the Sync view shows ("the log of the last runs with errors explained"),
-- kept across restarts. A run is written when it starts (ended_at NULL) and again when it ends; a
-- row still open at start-up belongs to a process that was killed, and is closed as cancelled.
-- Only the most recent runs are kept (src/main/sync/syncRunLog.ts prunes).
CREATE TABLE sync_runs (
  run_id     TEXT    PRIMARY KEY,
  account_id TEXT    NOT NULL,
  dc         TEXT    NOT NULL,
  started_at INTEGER NOT NULL,                  -- epoch ms
  ended_at   INTEGER,
  state      TEXT    NOT NULL
             CHECK (state IN ('running', 'paused', 'done', 'failed', 'offline', 'cancelled')),
  message    TEXT,
  calls      INTEGER NOT NULL DEFAULT 0,
  records    INTEGER NOT NULL DEFAULT 0,
  -- How each portal (module_id null) or module ended: [{portalId, moduleId, ok, message}].
  outcomes   TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(outcomes))
) STRICT;
CREATE INDEX sync_runs_recent ON sync_runs (started_at DESC);
