-- The portal overview's charts (src/main/overview/overviewCounts.ts). Every count reads an index
-- range of the records the records workspace lists (list_state 0: as stored, 1: with local
-- edits; 2, the recycle bin, is left out), never a record itself:
-- per module the smallest index of the module's rows, per status records_by_status (in status order, so no sort), per week
-- records_by_created (migration 0019) and records_by_updated. Those two hold the times as numbers
-- (migration 0022), so the weekly statements compare `unixepoch(<time>, 'subsec')`, the index's
-- own expression written the same way (instantSql), with bounds given as epoch milliseconds
-- (`@now`, the weeks' bounds): ms / 1000.0 is the number unixepoch gives the same instant.

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
-- The first and last created_time of the listed rows (as stored, and with local edits), as
-- seconds since 1970, and the last not after @now (the chart's window ends there when records
-- are dated later): each min() or max() alone over an equality-bound range is one seek, where min() and max() together,
-- or over `list_state IN (0, 1)`, read the whole range (70 ms at a million records).
SELECT
  (SELECT min(unixepoch(created_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 0) AS first0,
  (SELECT min(unixepoch(created_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 1) AS first1,
  (SELECT max(unixepoch(created_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 0) AS last0,
  (SELECT max(unixepoch(created_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 1) AS last1,
  (SELECT max(unixepoch(created_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 0 AND unixepoch(created_time, 'subsec') <= @now / 1000.0) AS past0,
  (SELECT max(unixepoch(created_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 1 AND unixepoch(created_time, 'subsec') <= @now / 1000.0) AS past1;

-- name: updatedSpan
SELECT
  (SELECT min(unixepoch(last_updated_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 0) AS first0,
  (SELECT min(unixepoch(last_updated_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 1) AS first1,
  (SELECT max(unixepoch(last_updated_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 0) AS last0,
  (SELECT max(unixepoch(last_updated_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 1) AS last1,
  (SELECT max(unixepoch(last_updated_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 0 AND unixepoch(last_updated_time, 'subsec') <= @now / 1000.0) AS past0,
  (SELECT max(unixepoch(last_updated_time, 'subsec')) FROM records WHERE module_key = @moduleKey AND list_state = 1 AND unixepoch(last_updated_time, 'subsec') <= @now / 1000.0) AS past1;

-- name: createdPerWeek
-- @bounds: a JSON array of epoch ms [start, next start, ...]: the count per [start, next start).
SELECT b.key AS week,
  (SELECT count(*) FROM records
   WHERE module_key = @moduleKey AND list_state IN (0, 1)
     AND unixepoch(created_time, 'subsec') >= b.value / 1000.0
     AND unixepoch(created_time, 'subsec') < b.next / 1000.0) AS records
FROM (SELECT key, value, lead(value) OVER (ORDER BY key) AS next FROM json_each(@bounds)) b
WHERE b.next IS NOT NULL;

-- name: updatedPerWeek
SELECT b.key AS week,
  (SELECT count(*) FROM records
   WHERE module_key = @moduleKey AND list_state IN (0, 1)
     AND unixepoch(last_updated_time, 'subsec') >= b.value / 1000.0
     AND unixepoch(last_updated_time, 'subsec') < b.next / 1000.0) AS records
FROM (SELECT key, value, lead(value) OVER (ORDER BY key) AS next FROM json_each(@bounds)) b
WHERE b.next IS NOT NULL;

-- name: createdBefore
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1)
  AND unixepoch(created_time, 'subsec') < ? / 1000.0;

-- name: updatedBefore
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1)
  AND unixepoch(last_updated_time, 'subsec') < ? / 1000.0;

-- name: createdFrom
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1)
  AND unixepoch(created_time, 'subsec') >= ? / 1000.0;

-- name: updatedFrom
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1)
  AND unixepoch(last_updated_time, 'subsec') >= ? / 1000.0;

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
