-- Local lists of records (src/main/store/mirror/recordQuery.ts and the files its README table
-- names). The filtered, sorted window and its count are put together there from these pieces and
-- packages/portal-api/src/filter's SQL.

-- name: dataVersion
-- Rows changed by this connection; with PRAGMA data_version (other connections' commits) it says
-- whether anything may have changed since a count was cached.
SELECT total_changes();

-- name: countAll
-- Every row: SQLite counts a whole index by its pages (OP_Count), a millisecond for a million rows
-- where walking one module's index range takes tens (recordCounts.ts, listedCount).
SELECT count(*) FROM records;

-- name: countOutsideListed
-- The rows that are not the module's listed server copies (list_state 0): other modules, and
-- this module's edited and trashed rows. Index ranges, each as long as the rows it counts.
SELECT (SELECT count(*) FROM records WHERE module_key < @moduleKey)
     + (SELECT count(*) FROM records WHERE module_key > @moduleKey)
     + (SELECT count(*) FROM records WHERE module_key = @moduleKey AND list_state > 0);

-- name: editedRows
-- Rows with pending local edits: lists read them merged with their edits.
SELECT row_key, portal_id, module_key, id, name, name_fold, name_sort, description, status_id,
       layout_id, project_id, project_name, owner_zpuid, is_closed, is_external, created_time,
       last_updated_time, trashed_time, custom, local_only
FROM records WHERE module_key = ? AND list_state = 1;

-- name: editsOfModule
SELECT e.record_id AS recordId, e.field, e.value
FROM record_edits e JOIN records r ON r.portal_id = e.portal_id AND r.id = e.record_id
WHERE r.module_key = ? AND r.list_state = 1
ORDER BY e.edited_at, e.field;

-- name: editsOf
SELECT record_id AS recordId, field, value FROM record_edits
WHERE portal_id = ? AND record_id IN (SELECT value FROM json_each(?))
ORDER BY edited_at, field;

-- name: editedRowsCte
-- A WITH-clause fragment: the merged edited rows, bound as one JSON array, with the columns of
-- `records` so the same filter and sort SQL reads both.
edited_rows AS (
  SELECT value ->> 'row_key' AS row_key, value ->> 'portal_id' AS portal_id,
         value ->> 'module_key' AS module_key, value ->> 'id' AS id, value ->> 'name' AS name,
         value ->> 'name_fold' AS name_fold, value ->> 'name_sort' AS name_sort,
         value ->> 'description' AS description,
         value ->> 'status_id' AS status_id, value ->> 'layout_id' AS layout_id,
         value ->> 'project_id' AS project_id, value ->> 'project_name' AS project_name,
         value ->> 'owner_zpuid' AS owner_zpuid, value ->> 'is_closed' AS is_closed,
         value ->> 'is_external' AS is_external, value ->> 'created_time' AS created_time,
         value ->> 'last_updated_time' AS last_updated_time,
         value ->> 'trashed_time' AS trashed_time, value ->> 'custom' AS custom,
         value ->> 'local_only' AS local_only
  FROM json_each(?)
)

-- name: rowsByKeys
SELECT r.row_key, r.portal_id, r.module_key, r.id, r.name, r.name_fold, r.name_sort,
       r.description, r.status_id, r.layout_id, r.project_id, r.project_name, r.owner_zpuid,
       r.is_closed, r.is_external, r.created_time, r.last_updated_time, r.trashed_time, r.custom,
       r.local_only, u.name AS owner_name, u.email AS owner_email,
       (cs.record_id IS NOT NULL AND cs.record_updated_at >= r.last_updated_time) AS comments_mirrored
FROM records r
LEFT JOIN portal_users u ON u.portal_id = r.portal_id AND u.zpuid = r.owner_zpuid
LEFT JOIN comment_sync cs ON cs.portal_id = r.portal_id AND cs.record_id = r.id
WHERE r.row_key IN (SELECT value FROM json_each(?));

-- name: columnRowsByKeys
-- rowsByKeys for a few columns (columnRows.ts, the records export): the marker after list_state
-- becomes the columns' expressions, the custom values among them one json_extract (or `->` for one). Rows
-- that are not plain server copies (list_state > 0: edited, trashed) are read by rowsByKeys. The
-- owner's name and email are read once a batch for the owners it holds (ownersOfZpuids), not
-- joined on every row: a batch names few people, and the join was about 0.8 µs of a row.
SELECT r.row_key, r.id, r.list_state /*columns*/
FROM records r
WHERE r.row_key IN (SELECT value FROM json_each(?));

-- name: ownersOfZpuids
-- A portal's people among some zpuids (a JSON array), for columnRows' owner column: what
-- rowsByKeys' join with portal_users gives each row.
SELECT zpuid, name, email FROM portal_users
WHERE portal_id = ? AND zpuid IN (SELECT value FROM json_each(?));

-- name: idsOfKeys
-- The record ids of a window's row keys (a range the table selects: records.ids).
SELECT row_key, id FROM records WHERE row_key IN (SELECT value FROM json_each(?));

-- name: keysOfIds
-- The row keys of a module's records in its lists (not trashed) among some ids (records.rows).
SELECT id, row_key FROM records
WHERE portal_id = ? AND module_key = ? AND list_state < 2 AND id IN (SELECT value FROM json_each(?));

-- name: trashedKeys
-- The row keys of a module's records in the recycle bin (RecordQuery.openTrashedView: an import
-- telling a row that names a trashed record from one naming none).
SELECT row_key FROM records WHERE module_key = ? AND list_state = 2 ORDER BY row_key;

-- name: customFieldIndexes
-- The custom-field indexes in the schema and their definitions (src/main/store/mirror/customFieldIndexer.ts).
SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND name LIKE 'records\_cf\_%' ESCAPE '\';

-- name: moduleKeys
SELECT module_key FROM modules;
