-- The sync run log (src/main/sync/syncRunLog.ts; table: migrations/0007_sync_runs.sql).

-- name: begin
INSERT INTO sync_runs (run_id, account_id, dc, started_at, state)
VALUES (@runId, @accountId, @dc, @startedAt, 'running')
ON CONFLICT (run_id) DO NOTHING;

-- name: finish
UPDATE sync_runs
SET ended_at = @endedAt, state = @state, message = @message, calls = @calls,
    records = @records, outcomes = @outcomes
WHERE run_id = @runId;

-- name: closeInterrupted
UPDATE sync_runs
SET ended_at = @endedAt, state = 'cancelled',
    message = 'PortalDesk was closed while this sync ran. Every page stored before that was kept; the next sync resumes from there.'
WHERE ended_at IS NULL;

-- name: recent
SELECT run_id AS runId, account_id AS accountId, dc, started_at AS startedAt,
       ended_at AS endedAt, state, message, calls, records, outcomes
FROM sync_runs ORDER BY started_at DESC, rowid DESC LIMIT ?;

-- name: prune
DELETE FROM sync_runs
WHERE run_id NOT IN (SELECT run_id FROM sync_runs ORDER BY started_at DESC, rowid DESC LIMIT ?);

-- name: lastSynced
-- A module's last pull: its cursor's last write.
SELECT portal_id AS portalId, module_id AS moduleId, updated_at AS updatedAt FROM sync_cursors;
