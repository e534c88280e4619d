-- Comments, which records' comments are mirrored, and status timelines
-- (src/main/store/mirror/commentRepository.ts).

-- name: recordVersion
SELECT last_updated_time FROM records WHERE portal_id = ? AND id = ?;

-- name: commentIds
SELECT id FROM comments WHERE portal_id = ? AND record_id = ?;

-- name: upsertComment
INSERT INTO comments (portal_id, record_id, id, content, attachments, created_by, created_time, last_updated_time)
VALUES (@portalId, @recordId, @id, @content, @attachments, @createdBy, @createdTime, @lastUpdatedTime)
ON CONFLICT (portal_id, id) DO UPDATE SET
  record_id = excluded.record_id, content = excluded.content,
  attachments = excluded.attachments, created_by = excluded.created_by,
  created_time = excluded.created_time, last_updated_time = excluded.last_updated_time
WHERE (comments.record_id, comments.content, comments.attachments, comments.created_by,
       comments.created_time, comments.last_updated_time)
  IS NOT (excluded.record_id, excluded.content, excluded.attachments, excluded.created_by,
          excluded.created_time, excluded.last_updated_time);

-- name: deleteCommentsNotIn
DELETE FROM comments
WHERE portal_id = ? AND record_id = ? AND id NOT IN (SELECT value FROM json_each(?))
RETURNING id;

-- name: commentSyncExists
SELECT EXISTS (SELECT 1 FROM comment_sync WHERE portal_id = ? AND record_id = ?);

-- name: writeCommentSync
INSERT INTO comment_sync (portal_id, record_id, synced_at, record_updated_at, comment_count)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (portal_id, record_id) DO UPDATE SET
  synced_at = excluded.synced_at, record_updated_at = excluded.record_updated_at,
  comment_count = excluded.comment_count;

-- name: comments
SELECT id, content, attachments, created_by AS createdBy, created_time AS createdTime,
       last_updated_time AS lastUpdatedTime
FROM comments WHERE portal_id = ? AND record_id = ? ORDER BY created_time, id;

-- name: recordsNeedingComments
-- Records whose comments were never read, whose record changed since, or (with a cut-off) that
-- were read before it; most recently changed first, as the issue asks for changed records first.
SELECT r.id FROM records r
LEFT JOIN comment_sync s ON s.portal_id = r.portal_id AND s.record_id = r.id
WHERE r.module_key = @moduleKey AND r.list_state IN (0, 1) AND r.local_only = 0
  AND (s.record_id IS NULL OR s.record_updated_at < r.last_updated_time
       OR (@staleBefore IS NOT NULL AND s.synced_at < @staleBefore))
ORDER BY r.last_updated_time DESC, r.id DESC
LIMIT @limit;

-- name: countRecordsNeedingComments
SELECT count(*) FROM records r
LEFT JOIN comment_sync s ON s.portal_id = r.portal_id AND s.record_id = r.id
WHERE r.module_key = ? AND r.list_state IN (0, 1) AND r.local_only = 0
  AND (s.record_id IS NULL OR s.record_updated_at < r.last_updated_time);

-- name: timelineIds
SELECT id FROM status_timeline WHERE portal_id = ? AND record_id = ?;

-- name: upsertTimeline
INSERT INTO status_timeline (portal_id, record_id, id, from_status_id, to_status_id, changed_by, changed_time)
VALUES (@portalId, @recordId, @id, @fromStatusId, @toStatusId, @changedBy, @changedTime)
ON CONFLICT (portal_id, id) DO UPDATE SET
  record_id = excluded.record_id, from_status_id = excluded.from_status_id,
  to_status_id = excluded.to_status_id, changed_by = excluded.changed_by,
  changed_time = excluded.changed_time
WHERE (status_timeline.record_id, status_timeline.from_status_id, status_timeline.to_status_id,
       status_timeline.changed_by, status_timeline.changed_time)
  IS NOT (excluded.record_id, excluded.from_status_id, excluded.to_status_id,
          excluded.changed_by, excluded.changed_time);

-- name: deleteTimelineNotIn
DELETE FROM status_timeline
WHERE portal_id = ? AND record_id = ? AND id NOT IN (SELECT value FROM json_each(?))
RETURNING id;

-- name: timeline
SELECT id, from_status_id AS fromStatusId, to_status_id AS toStatusId, changed_by AS changedBy,
       changed_time AS changedTime
FROM status_timeline WHERE portal_id = ? AND record_id = ? ORDER BY changed_time, id;
