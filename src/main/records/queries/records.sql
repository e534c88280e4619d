-- The records workspace's reads of the mirror that its public methods do not offer (portals,
-- record counts, layouts with their sections, one record by id, trashed ones included), and its
-- own tables: saved filters and recently viewed records (migration 0006_saved_filters).

-- name: portals
SELECT id, account_id AS accountId, dc, name, org_name AS orgName, timezone AS timeZone,
       is_default AS isDefault
FROM portals ORDER BY account_id, is_default DESC, name, id;

-- name: moduleCount
-- An index range of records_by_id: the rows lists show (0 as stored, 1 with local edits).
SELECT count(*) FROM records WHERE module_key = ? AND list_state IN (0, 1);

-- name: layouts
SELECT id, name, is_default AS isDefault FROM layouts
WHERE portal_id = ? AND module_id = ? ORDER BY is_default DESC, name, id;

-- name: sections
SELECT s.layout_id AS layoutId, s.id, s.name FROM sections s
JOIN layouts l ON l.portal_id = s.portal_id AND l.id = s.layout_id
WHERE l.portal_id = ? AND l.module_id = ? ORDER BY s.layout_id, s.position, s.id;

-- name: placements
SELECT p.section_id AS sectionId, p.field_id AS fieldId FROM layout_fields p
JOIN layouts l ON l.portal_id = p.portal_id AND l.id = p.layout_id
WHERE l.portal_id = ? AND l.module_id = ? ORDER BY p.section_id, p.position, p.field_id;

-- name: record
SELECT r.row_key, r.portal_id, r.module_key, r.id, r.name, r.name_fold, r.name_sort,
       r.description, r.status_id, r.layout_id, r.project_id, r.project_name, r.owner_zpuid,
       r.is_closed, r.is_external, r.created_time, r.last_updated_time, r.trashed_time, r.custom,
       r.local_only, m.id AS module_id, m.plural_name AS module_name,
       cs.synced_at AS comments_synced_at,
       (cs.record_id IS NOT NULL AND cs.record_updated_at >= r.last_updated_time) AS comments_mirrored
FROM records r
JOIN modules m ON m.module_key = r.module_key
LEFT JOIN comment_sync cs ON cs.portal_id = r.portal_id AND cs.record_id = r.id
WHERE r.portal_id = ? AND r.id = ?;

-- name: editsOfRecord
SELECT field, value FROM record_edits WHERE portal_id = ? AND record_id = ?
ORDER BY edited_at, field;

-- name: savedFilters
SELECT id, name, filter, updated_at AS updatedAt FROM saved_filters
WHERE portal_id = ? AND module_id = ? ORDER BY name COLLATE NOCASE, id;

-- name: countSavedFilters
SELECT count(*) FROM saved_filters WHERE portal_id = ? AND module_id = ?;

-- name: saveFilter
INSERT INTO saved_filters (portal_id, module_id, name, filter, created_at, updated_at)
VALUES (@portalId, @moduleId, @name, @filter, @now, @now)
ON CONFLICT (portal_id, module_id, name) DO UPDATE SET
  filter = excluded.filter, updated_at = excluded.updated_at;

-- name: savedFilterExists
SELECT EXISTS (SELECT 1 FROM saved_filters WHERE portal_id = ? AND module_id = ? AND name = ?);

-- name: deleteFilter
DELETE FROM saved_filters WHERE portal_id = ? AND module_id = ? AND id = ?;

-- name: recent
SELECT v.record_id AS recordId, m.id AS moduleId, m.plural_name AS module, r.name,
       v.viewed_at AS viewedAt
FROM recent_records v
JOIN records r ON r.portal_id = v.portal_id AND r.id = v.record_id
JOIN modules m ON m.module_key = r.module_key
WHERE v.portal_id = ? ORDER BY v.viewed_at DESC, v.record_id LIMIT ?;

-- name: markViewed
INSERT INTO recent_records (portal_id, record_id, viewed_at) VALUES (?, ?, ?)
ON CONFLICT (portal_id, record_id) DO UPDATE SET viewed_at = excluded.viewed_at;

-- name: trimRecent
-- Keeps the newest ones only, so the list never grows past its limit.
DELETE FROM recent_records WHERE portal_id = @portalId AND record_id NOT IN (
  SELECT record_id FROM recent_records WHERE portal_id = @portalId
  ORDER BY viewed_at DESC, record_id LIMIT @keep
);

-- name: recordExists
SELECT EXISTS (SELECT 1 FROM records WHERE portal_id = ? AND id = ?);

-- name: dataVersion
-- Rows changed by this connection; with PRAGMA data_version it says whether counts went stale.
SELECT total_changes();

-- name: trashed
-- A module's records in the service's recycle bin (lists and search leave them out).
SELECT r.id AS recordId, r.name, r.trashed_time AS trashedTime FROM records r
JOIN modules m ON m.module_key = r.module_key
WHERE m.portal_id = ? AND m.id = ? AND r.list_state = 2
ORDER BY r.trashed_time DESC, r.id LIMIT ?;
