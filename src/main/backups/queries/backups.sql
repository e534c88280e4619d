-- The backups and backup_schedules tables (migrations 0011, 0027, 0028); src/main/backups/backupRepository.ts.

-- name: insert
INSERT INTO backups (account_id, portal_id, export_id, stage, attachment_needed, reused,
  scheduled, requested_time, completed_time, requested_by, created_at, on_service, problem)
VALUES (@accountId, @portalId, @exportId, @stage, @attachmentNeeded, @reused, @scheduled,
  @requestedTime, @completedTime, @requestedBy, @createdAt, @onService, @problem);

-- name: byId
SELECT * FROM backups WHERE id = ?;

-- name: byExport
SELECT * FROM backups WHERE portal_id = ? AND export_id = ?;

-- name: all
SELECT * FROM backups ORDER BY COALESCE(completed_time, requested_time, created_at) DESC, id DESC;

-- name: unfinished
SELECT * FROM backups WHERE stage IN ('scheduled', 'generating', 'downloading', 'verifying')
ORDER BY id;

-- name: ofPortal
SELECT * FROM backups WHERE portal_id = ? ORDER BY id;

-- name: setAnswer
UPDATE backups SET export_id = @exportId, stage = @stage, reused = @reused,
  requested_time = @requestedTime, completed_time = @completedTime, requested_by = @requestedBy,
  on_service = 1, problem = NULL, note = NULL, failure = NULL
WHERE id = @id;

-- name: setStage
UPDATE backups SET stage = @stage, problem = @problem, note = @note, failure = NULL WHERE id = @id;

-- name: setFailed
UPDATE backups SET stage = 'failed', problem = @problem, note = NULL, failure = @failure
WHERE id = @id;

-- name: setProgress
UPDATE backups SET downloaded_bytes = @bytes, total_bytes = @totalBytes, etag = @etag,
  resumed = MAX(resumed, @resumed)
WHERE id = @id;

-- name: setReady
UPDATE backups SET stage = 'ready', file = @file, sha256 = @sha256, verification = @verification,
  downloaded_bytes = @bytes, total_bytes = @bytes, problem = NULL, note = NULL, failure = NULL
WHERE id = @id;

-- name: setVerification
UPDATE backups SET verification = @verification, problem = @problem, note = @note WHERE id = @id;

-- name: setOnService
UPDATE backups SET on_service = @onService WHERE portal_id = @portalId AND export_id = @exportId;

-- name: markPortalHistory
UPDATE backups SET on_service = 0
WHERE portal_id = @portalId AND export_id IS NOT NULL AND on_service = 1;

-- name: forget
DELETE FROM backups WHERE id = ?;

-- name: toLocalOnly
UPDATE backups SET stage = 'on_service', file = NULL, sha256 = NULL, verification = NULL,
  downloaded_bytes = NULL, total_bytes = NULL, etag = NULL, resumed = 0, problem = NULL,
  note = NULL, failure = NULL
WHERE id = ?;

-- name: schedule
SELECT * FROM backup_schedules WHERE portal_id = ?;

-- name: schedules
SELECT * FROM backup_schedules;

-- name: setSchedule
INSERT INTO backup_schedules (portal_id, frequency, hour, weekday, keep, set_at, last_run_at)
VALUES (@portalId, @frequency, @hour, @weekday, @keep, @setAt, NULL)
ON CONFLICT (portal_id) DO UPDATE SET frequency = excluded.frequency, hour = excluded.hour,
  weekday = excluded.weekday, keep = excluded.keep, set_at = excluded.set_at;

-- name: scheduleRan
UPDATE backup_schedules SET last_run_at = @at WHERE portal_id = @portalId;

-- name: portals
-- Read only: the mirror's portals, which backups are made of (the mirror owns the table).
SELECT id, account_id AS accountId, name FROM portals ORDER BY account_id, is_default DESC, name, id;
