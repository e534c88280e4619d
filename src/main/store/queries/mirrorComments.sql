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

-- name: commentNeedsChunk
-- The backfill's walk (src/main/sync/commentNeeds.ts): the next @chunk records of one list_state
-- in records_by_updated's order (most recently changed first, ties by id; its numbers, migration
-- 0022) after the cursor (@updated, @id), each with whether its comments need reading: never
-- read, read at an older version of the record, or (with @staleBefore) read before it. A chunk
-- is two index ranges, the rest of the cursor's time (by id) and the times before it, so each
-- costs its own rows whatever the module's size or how many records share a time; the walk
-- yields between chunks. One statement over `list_state IN (0, 1)` had no index order: SQLite
-- sorted the whole module for every batch, 10-15 s on the engine's thread at a million records
-- (bench/README.md, "The comment backfill's batches"). A record whose time has no number (kept
-- as sent past year 9999, instant.ts) is not walked; commentableRecords leaves it out too.
SELECT c.id, c.updated,
  c.local_only = 0 AND (s.record_id IS NULL OR s.record_updated_at < c.last_updated_time
    OR (@staleBefore IS NOT NULL AND s.synced_at < @staleBefore)) AS needs
FROM (
  SELECT * FROM (
    SELECT r.portal_id, r.id, r.local_only, r.last_updated_time,
      unixepoch(r.last_updated_time, 'subsec') AS updated
    FROM records r
    WHERE r.module_key = @moduleKey AND r.list_state = @listState
      AND unixepoch(r.last_updated_time, 'subsec') = @updated AND r.id < @id
    ORDER BY r.id DESC
    LIMIT @chunk)
  UNION ALL
  SELECT * FROM (
    SELECT r.portal_id, r.id, r.local_only, r.last_updated_time,
      unixepoch(r.last_updated_time, 'subsec') AS updated
    FROM records r
    WHERE r.module_key = @moduleKey AND r.list_state = @listState
      AND unixepoch(r.last_updated_time, 'subsec') < @updated
    ORDER BY unixepoch(r.last_updated_time, 'subsec') DESC, r.id DESC
    LIMIT @chunk)
  ORDER BY updated DESC, id DESC
  LIMIT @chunk) c
LEFT JOIN comment_sync s ON s.portal_id = c.portal_id AND s.record_id = c.id
ORDER BY c.updated DESC, c.id DESC;

-- name: commentableRecords
-- The records whose comments the backfill reads: the module's listed records whose time has a
-- number (an index range of records_by_updated; see commentNeedsChunk) less those created here
-- (a few rows). `+`: list_state then bounds no index, and SQLite takes records_local_only instead
-- of walking a list index and reading every row (3 s at a million).
SELECT
  (SELECT count(*) FROM records
   WHERE module_key = @moduleKey AND list_state IN (0, 1)
     AND unixepoch(last_updated_time, 'subsec') IS NOT NULL)
  - (SELECT count(*) FROM records
     WHERE module_key = @moduleKey AND local_only = 1 AND +list_state IN (0, 1)
       AND unixepoch(last_updated_time, 'subsec') IS NOT NULL);

-- name: commentsReadChunk
-- The next @chunk comment_sync rows of the portal after @after (by record id), how many of them
-- are of this module's commentable records and read at the record's current version, and the
-- last record id: src/main/sync/commentNeeds.ts counts the records needing comments as the
-- commentable ones less these, a chunk at a time. One join over every record of the module took
-- 5-8 s on the engine's thread at a million records.
SELECT count(*) AS rows, max(c.record_id) AS last, count(r.row_key) AS current
FROM (
  SELECT s.record_id, s.record_updated_at FROM comment_sync s
  WHERE s.portal_id = @portalId AND s.record_id > @after
  ORDER BY s.record_id
  LIMIT @chunk) c
LEFT JOIN records r ON r.portal_id = @portalId AND r.id = c.record_id
  AND r.module_key = @moduleKey AND r.list_state IN (0, 1) AND r.local_only = 0
  AND c.record_updated_at >= r.last_updated_time;

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
