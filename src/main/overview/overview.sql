-- The portal overview's charts (src/main/overview/overviewCounts.ts). Every count reads an index
-- range of the records the records workspace lists (list_state 0: as stored, 1: with local
-- edits; 2, the recycle bin, is left out), never a record itself:
-- per module the smallest index of the module's rows, per status records_by_status (in status order, so no sort), per week
-- record_created_hours (migration 0023) with records_by_created (0019) for the hours a bound cuts,
-- and records_by_updated. The two time indexes hold the times as numbers
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
-- @bounds: a JSON array of [epoch ms, its hour] (hour: floor(ms / 3600000)) per bound: the count
-- per [start, next start). Read from record_created_hours (migration 0023) as the hours from the
-- start's to the next start's, less the records of the start's hour before the start, plus those of
-- the next start's hour before it (each a range of records_by_created within one hour: none when
-- the zone's midnights are whole UTC hours).
SELECT b.key AS week,
  (SELECT coalesce(sum(records), 0) FROM record_created_hours
   WHERE module_key = @moduleKey AND hour >= b.hour AND hour < b.nextHour)
  - (SELECT count(*) FROM records
     WHERE module_key = @moduleKey AND list_state IN (0, 1)
       AND unixepoch(created_time, 'subsec') >= b.hour * 3600.0
       AND unixepoch(created_time, 'subsec') < b.value / 1000.0)
  + (SELECT count(*) FROM records
     WHERE module_key = @moduleKey AND list_state IN (0, 1)
       AND unixepoch(created_time, 'subsec') >= b.nextHour * 3600.0
       AND unixepoch(created_time, 'subsec') < b.next / 1000.0) AS records
FROM (SELECT key, value ->> 0 AS value, value ->> 1 AS hour,
        lead(value ->> 0) OVER (ORDER BY key) AS next,
        lead(value ->> 1) OVER (ORDER BY key) AS nextHour
      FROM json_each(@bounds)) b
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
-- Before @at (epoch ms; @hour its hour): the hours before @hour, plus @hour's records before @at.
SELECT
  (SELECT coalesce(sum(records), 0) FROM record_created_hours
   WHERE module_key = @moduleKey AND hour < @hour)
  + (SELECT count(*) FROM records
     WHERE module_key = @moduleKey AND list_state IN (0, 1)
       AND unixepoch(created_time, 'subsec') >= @hour * 3600.0
       AND unixepoch(created_time, 'subsec') < @at / 1000.0);

-- name: updatedBefore
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1)
  AND unixepoch(last_updated_time, 'subsec') < ? / 1000.0;

-- name: createdFrom
-- From @at on: the hours from @hour, less @hour's records before @at.
SELECT
  (SELECT coalesce(sum(records), 0) FROM record_created_hours
   WHERE module_key = @moduleKey AND hour >= @hour)
  - (SELECT count(*) FROM records
     WHERE module_key = @moduleKey AND list_state IN (0, 1)
       AND unixepoch(created_time, 'subsec') >= @hour * 3600.0
       AND unixepoch(created_time, 'subsec') < @at / 1000.0);

-- name: updatedFrom
SELECT count(*) FROM records
WHERE module_key = ? AND list_state IN (0, 1)
  AND unixepoch(last_updated_time, 'subsec') >= ? / 1000.0;

-- name: outboxStates
SELECT state, count(*) AS operations FROM outbox_ops WHERE portal_id = ? GROUP BY state;

-- name: outboxAll
-- Every portal's operations: the Outbox view lists them together.
SELECT count(*) FROM outbox_ops;

-- name: lastBackup
-- The backups the service made of the portal, downloaded here or not (few rows; the newest is
-- picked by parsing the times, which the service writes).
SELECT completed_time AS completedTime, stage FROM backups
WHERE portal_id = ? AND completed_time IS NOT NULL AND stage <> 'failed';

-- name: failedBackups
-- The portal's failed backup attempts, when this computer asked for each (or first saw it), and
-- why: the newest after the last backup is said beside its age.
SELECT created_at AS at, problem FROM backups WHERE portal_id = ? AND stage = 'failed';

-- name: statuses
SELECT id, module_id AS moduleId, name, color FROM statuses
WHERE portal_id = ? ORDER BY module_id, position, id;

-- name: queuedStatusChanges
-- The portal's queued status renames and recolourings, in queue order: the statuses are named
-- as they leave them, as the records workspace names them (statusesNamedAsQueued).
SELECT module_id AS moduleId, kind, action, state, fields FROM outbox_ops
WHERE portal_id = ? AND kind = 'config' AND action IN ('status.updateStatuses')
ORDER BY seq;

-- name: portal
SELECT id, name, timezone AS timeZone, week_start_day AS weekStartDay FROM portals WHERE id = ?;
