-- The user's local changes to the mirror (src/main/store/mirror/localEditsRepository.ts): the
-- overlay of pending edits, records created offline, trash and restore shown at once, and the
-- rows a replay writes back. The outbox decides; this file is the only place it writes the
-- mirror's tables from.

-- Overlay (record_edits): its triggers keep records.edited and list_state.

-- name: editsOfRecord
SELECT field, value, base_value AS base, edited_at AS editedAt
FROM record_edits WHERE portal_id = ? AND record_id = ?;

-- name: upsertEdit
INSERT INTO record_edits (portal_id, record_id, field, value, base_value, edited_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (portal_id, record_id, field) DO UPDATE SET
  value = excluded.value, base_value = excluded.base_value, edited_at = excluded.edited_at;

-- name: deleteEdit
DELETE FROM record_edits WHERE portal_id = ? AND record_id = ? AND field = ?;

-- name: moveEdits
UPDATE record_edits SET record_id = @to WHERE portal_id = @portalId AND record_id = @from;

-- Records: the server copy (read) and rows of records created offline (written).

-- name: record
SELECT r.*, m.id AS module_id, m.api_name AS module_api_name, m.plural_name AS module_name
FROM records r JOIN modules m ON m.module_key = r.module_key
WHERE r.portal_id = ? AND r.id = ?;

-- name: insertLocalRecord
INSERT INTO records (portal_id, module_key, id, name, name_fold, name_sort, description,
                     status_id, layout_id, owner_zpuid, is_closed, is_external, created_time,
                     last_updated_time, custom, local_only, list_state)
VALUES (@portalId, @moduleKey, @id, @name, @nameFold, @nameSort, @description, @statusId,
        @layoutId, @ownerZpuid, @isClosed, @isExternal, @now, @now, @custom, 1, 0);

-- name: updateLocalRecord
UPDATE records
SET name = @name, name_fold = @nameFold, name_sort = @nameSort, description = @description,
    status_id = @statusId, is_closed = @isClosed, is_external = @isExternal, custom = @custom,
    last_updated_time = @now
WHERE portal_id = @portalId AND id = @id AND local_only = 1;

-- name: deleteLocalRecord
DELETE FROM records WHERE portal_id = ? AND id = ? AND local_only = 1;

-- name: setTrashed
-- A queued trash or restore shows at once; the list index follows (list_state's CHECK).
UPDATE records
SET trashed_time = @trashedTime,
    list_state = CASE WHEN @trashedTime IS NOT NULL THEN 2 WHEN edited = 1 THEN 1 ELSE 0 END
WHERE portal_id = @portalId AND id = @id;

-- name: deleteServerCopy
DELETE FROM records WHERE portal_id = ? AND id = ? AND local_only = 0;

-- Comments the replay added, changed or deleted (the mirror's table).

-- name: upsertComment
INSERT INTO comments (portal_id, record_id, id, content, attachments, created_by, created_time,
                      last_updated_time)
VALUES (@portalId, @recordId, @id, @content, @attachments, @createdBy, @createdTime,
        @lastUpdatedTime)
ON CONFLICT (portal_id, id) DO UPDATE SET
  content = excluded.content, attachments = excluded.attachments,
  last_updated_time = excluded.last_updated_time;

-- name: deleteComment
DELETE FROM comments WHERE portal_id = ? AND id = ?;

-- name: comment
SELECT id, record_id AS recordId, content FROM comments WHERE portal_id = ? AND id = ?;
