-- The portal overview's charts (src/main/overview/overviewCounts.ts). Every count reads an index
-- range of the records the records workspace lists (list_state 0: as stored, 1: with local
-- edits; 2, the recycle bin, is left out), never a record itself:
-- per module the smallest index of the module's rows, per status records_by_status (in status order, so no sort), per week
-- records_by_created (migration 0019) and records_by_updated.

-- name: modules
SELECT module_key AS moduleKey, id, plural_name AS name, is_default AS builtIn
FROM modules WHERE portal_id = ? ORDER BY is_default, plural_name COLLATE NOCASE, id;

-- name: moduleRecords
SELECT count(*) FROM records WHERE module_key = ? AND list_state IN (0, 1);

-- name: statusRecords
-- Rows with local edits are counted apart (their status may be edited): see editedStatuses.
SELECT status_id AS statusId, count(*) AS records
FROM records WHERE module_key = ? AND list_state = 0
GROUP BY status_id;

-- name: editedStatuses
-- The edited rows' stored status and the status their edits set (JSON as the API shows a
-- status: an object with an id, or null), the last edit of the field winning.
SELECT r.status_id AS statusId,
       (SELECT e.value FROM record_edits e
        WHERE e.portal_id = r.portal_id AND e.record_id = r.id AND e.field = 'status') AS edited
FROM records r WHERE r.module_key = ? AND r.list_state = 1;

-- name: createdSpan
-- The first and last created_time of the listed rows (as stored, and with local edits), and the
-- last not after @now (the chart's window ends there when records are dated later): each
-- min() or max() alone over an equality-bound range is one seek, where min() and max() together,
-- or over `list_state IN (0, 1)`, read the whole range (70 ms at a million records).
SELECT
  (SELECT min(created_time) FROM records WHERE module_key = @moduleKey AND list_state = 0) AS first0,
  (SELECT min(created_time) FROM records WHERE module_key = @moduleKey AND list_state = 1) AS first1,
  (SELECT max(created_time) FROM records WHERE module_key = @moduleKey AND list_state = 0) AS last0,
  (SELECT max(created_time) FROM records WHERE module_key = @moduleKey AND list_state = 1) AS last1,
  (SELECT max(created_time) FROM records WHERE module_key = @moduleKey AND list_state = 0 AND created_time <= @now) AS past0,
  (SELECT max(created_time) FROM records WHERE module_key = @moduleKey AND list_state = 1 AND created_time <= @now) AS past1;

-- name: updatedSpan
SELECT
  (SELECT min(last_updated_time) FROM records WHERE module_key = @moduleKey AND list_state = 0) AS first0,
  (SELECT min(last_updated_time) FROM records WHERE module_key = @moduleKey AND list_state = 1) AS first1,
  (SELECT max(last_updated_time) FROM records WHERE module_key = @moduleKey AND list_state = 0) AS last0,
  (SELECT max(last_updated_time) FROM records WHERE module_key = @moduleKey AND list_state = 1) AS last1,
  (SELECT max(last_updated_time) FROM records WHERE module_key = @moduleKey AND list_state = 0 AND last_updated_time <= @now) AS past0,
  (SELECT max(last_updated_time) FROM records WHERE module_key = @moduleKey AND list_state = 1 AND last_updated_time <= @now) AS past1;

-- name: createdPerWeek
-- @bounds: a JSON array of ISO instants [start, next start, ...]: the count per [start, next start).
SELECT b.key AS week,
  (SELECT count(*) FROM records
   WHERE module_key = @moduleKey AND list_state IN (0, 1)
     AND created_time >= b.value AND created_time < b.next) AS records
FROM (SELECT key, value, lead(value) OVER (ORDER BY key) AS next FROM json_each(@bounds)) b
WHERE b.next IS NOT NULL;

-- name: updatedPerWeek
SELECT b.key AS week,
  (SELECT count(*) FROM records
   WHERE module_key = @moduleKey AND list_state IN (0, 1)
     AND last_updated_time >= b.value AND last_updated_time < b.next) AS records
FROM (SELECT key, value, lead(value) OVER (ORDER BY key) AS next FROM json_each(@bounds)) b
WHERE b.next IS NOT NULL;

-- name: createdBefore
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1) AND created_time < ?;

-- name: updatedBefore
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1) AND last_updated_time < ?;

-- name: createdFrom
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1) AND created_time >= ?;

-- name: updatedFrom
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1) AND last_updated_time >= ?;

-- name: outboxStates
SELECT state, count(*) AS operations FROM outbox_ops WHERE portal_id = ? GROUP BY state;

-- name: lastBackup
-- The backups the service made of the portal, downloaded here or not (few rows; the newest is
-- picked by parsing the times, which the service writes).
SELECT completed_time AS completedTime, stage FROM backups
WHERE portal_id = ? AND completed_time IS NOT NULL AND stage <> 'failed';

-- name: statuses
SELECT id, module_id AS moduleId, name, color FROM statuses
WHERE portal_id = ? ORDER BY module_id, position, id;

-- name: portal
SELECT id, name, timezone AS timeZone, week_start_day AS weekStartDay FROM portals WHERE id = ?;
