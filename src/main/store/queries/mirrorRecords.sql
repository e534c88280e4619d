-- Records, their reconciliation and the pull cursors (src/main/store/mirror/recordRepository.ts).
-- The record upsert binds positional parameters: binding an object by name costs about 40% of the
-- upsert rate in better-sqlite3.

-- name: storedIds
-- Which of a batch's ids (a JSON array) are stored already: the others take the plain insert.
SELECT id FROM records WHERE portal_id = ? AND id IN (SELECT value FROM json_each(?));

-- name: insertRecord
-- A record not stored yet (storedIds): a plain insert costs about a fifth less per row than the
-- upsert below, which first probes the (portal_id, id) key and then inserts (bench/store.mjs).
INSERT INTO records (
  portal_id, module_key, id, name, name_fold, name_sort, description, status_id, layout_id,
  project_id, project_name, owner_zpuid, is_closed, is_external, created_time, last_updated_time,
  trashed_time, custom, list_state
)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: upsertRecord
-- A stored record. Its copy is replaced only by one at least as new (a page read before an edit
-- must not undo it) and only when something differs: a repeated page returns no rows.
INSERT INTO records (
  portal_id, module_key, id, name, name_fold, name_sort, description, status_id, layout_id,
  project_id, project_name, owner_zpuid, is_closed, is_external, created_time, last_updated_time,
  trashed_time, custom, list_state
)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (portal_id, id) DO UPDATE SET
  module_key = excluded.module_key, name = excluded.name, name_fold = excluded.name_fold,
  name_sort = excluded.name_sort,
  description = excluded.description, status_id = excluded.status_id,
  layout_id = excluded.layout_id, project_id = excluded.project_id,
  project_name = excluded.project_name, owner_zpuid = excluded.owner_zpuid,
  is_closed = excluded.is_closed, is_external = excluded.is_external,
  created_time = excluded.created_time, last_updated_time = excluded.last_updated_time,
  trashed_time = excluded.trashed_time, custom = excluded.custom,
  list_state = CASE WHEN excluded.trashed_time IS NOT NULL THEN 2 ELSE records.edited END
WHERE records.local_only = 0
  AND excluded.last_updated_time >= records.last_updated_time
  AND (records.module_key, records.name, records.description, records.status_id,
       records.layout_id, records.project_id, records.project_name, records.owner_zpuid,
       records.is_closed, records.is_external, records.created_time,
       records.last_updated_time, records.trashed_time, records.custom)
    IS NOT (excluded.module_key, excluded.name, excluded.description, excluded.status_id,
            excluded.layout_id, excluded.project_id, excluded.project_name,
            excluded.owner_zpuid, excluded.is_closed, excluded.is_external,
            excluded.created_time, excluded.last_updated_time, excluded.trashed_time,
            excluded.custom);

-- name: timestampFields
-- A module's custom time stamp fields: their values are stored as canonical instants.
SELECT api_name FROM fields WHERE portal_id = ? AND module_id = ? AND field_type = 'timestamp';

-- name: markEdited
-- A record pulled again after its server copy was deleted keeps showing its pending edits.
UPDATE records SET edited = 1, list_state = CASE WHEN trashed_time IS NULL THEN 1 ELSE 2 END
WHERE portal_id = ? AND edited = 0 AND id IN (
  SELECT record_id FROM record_edits
  WHERE portal_id = ? AND record_id IN (SELECT value FROM json_each(?))
);

-- name: createKeepTable
CREATE TEMP TABLE IF NOT EXISTS mirror_keep_ids (id TEXT PRIMARY KEY) WITHOUT ROWID;

-- name: clearKeepTable
DELETE FROM temp.mirror_keep_ids;

-- name: addKeepIds
INSERT OR IGNORE INTO temp.mirror_keep_ids (id) SELECT value FROM json_each(?);

-- name: deleteNotKept
-- The id test first: it reads only the index, so the rows kept (nearly all) are never read.
DELETE FROM records
WHERE module_key = ?
  AND NOT EXISTS (SELECT 1 FROM temp.mirror_keep_ids k WHERE k.id = records.id)
  AND local_only = 0
RETURNING id;

-- name: deleteIn
DELETE FROM records
WHERE portal_id = ? AND local_only = 0 AND id IN (SELECT value FROM json_each(?))
RETURNING id;

-- name: fieldValueCount
-- Records of a module (the recycle bin's included) holding a value of a custom field (@path:
-- `$."<api name>"`): what deleting the field takes away. A scan of the module's rows, asked only
-- before a delete.
SELECT count(*) FROM records WHERE module_key = @moduleKey AND json_extract(custom, @path) IS NOT NULL;

-- name: optionUse
-- Per value of a pick list or multi-select (@path: `$."<api name>"`), how many of the module's
-- records (the recycle bin's included) hold it: one scan of the module's rows, asked when a field's
-- options are shown. json_each yields a pick list's one value and a multi-select's items alike.
SELECT j.value AS name, count(*) AS records
FROM records r, json_each(r.custom, @path) j
WHERE r.module_key = @moduleKey AND j.type = 'text'
GROUP BY j.value;

-- name: relabelPickList
-- A pick list's options renamed or removed on the service, which changed its records' values the
-- same way without touching their last_updated_time: the mirror follows. @relabel is a JSON array
-- of [from, to] pairs (to null: removed), applied at once, so a swap (A→B, B→A) or a cycle moves
-- each record by its value before the change, never by another pair's result. A record created
-- here and not sent yet (local_only) is left alone: its copy shows its queued create's values,
-- which followed the rename when it was queued (configure/queuedRecordOptions.ts).
UPDATE records
SET custom = (
  SELECT CASE WHEN pair.value ->> 1 IS NULL THEN json_remove(records.custom, @path)
              ELSE json_set(records.custom, @path, pair.value ->> 1) END
  FROM json_each(@relabel) pair
  WHERE pair.value ->> 0 = json_extract(records.custom, @path))
WHERE module_key = @moduleKey AND local_only = 0
  AND json_extract(custom, @path) IN (SELECT value ->> 0 FROM json_each(@relabel));

-- name: relabelMultiSelect
-- The same for a multi-select's values (arrays of option names): each item renamed in place or
-- taken out by the pair naming its value before the change, the other items kept in their order.
-- Local records are left alone, as above.
UPDATE records
SET custom = json_set(custom, @path, (
  SELECT json_group_array(item) FROM (
    SELECT CASE WHEN pair.value IS NULL THEN j.value ELSE pair.value ->> 1 END AS item,
           pair.value AS relabelled
    FROM json_each(records.custom, @path) j
    LEFT JOIN json_each(@relabel) pair ON pair.value ->> 0 = j.value
    ORDER BY j.key)
  WHERE NOT (relabelled IS NOT NULL AND relabelled ->> 1 IS NULL)))
WHERE module_key = @moduleKey AND local_only = 0
  AND EXISTS (
    SELECT 1 FROM json_each(records.custom, @path) j
    JOIN json_each(@relabel) pair ON pair.value ->> 0 = j.value);

-- name: clearFieldValues
-- A custom field deleted on the service, which takes its values from every record of the module
-- (the recycle bin's included) without a new last_updated_time: the server copies follow, so a
-- new field of the same API name starts empty here as there. Records made here and not yet sent
-- keep what the user typed: their create is the outbox's to send or refuse.
UPDATE records
SET custom = json_remove(custom, @path)
WHERE module_key = @moduleKey AND local_only = 0 AND json_type(custom, @path) IS NOT NULL;

-- name: layoutUse
-- Records of a portal (the recycle bin's included) whose layout is this one: the service keeps a
-- layout its records use. A scan of the portal's rows; asked only before a layout is deleted.
SELECT count(*) FROM records WHERE portal_id = ? AND layout_id = ?;

-- name: countServerCopies
-- What the server's count of the module's records should equal: listed (not trashed) rows
-- that are not local-only. Both terms are index ranges.
SELECT
  (SELECT count(*) FROM records WHERE module_key = ? AND list_state IN (0, 1))
  - (SELECT count(*) FROM records WHERE module_key = ? AND local_only = 1 AND trashed_time IS NULL);

-- name: cursor
SELECT portal_id AS portalId, module_id AS moduleId, high_water AS highWater,
       scan_index AS scanIndex, scan_after AS scanAfter, full_started_at AS fullStartedAt,
       full_completed_at AS fullCompletedAt, last_reconciled_at AS lastReconciledAt,
       updated_at AS updatedAt
FROM sync_cursors WHERE portal_id = ? AND module_id = ?;

-- name: writeCursor
INSERT INTO sync_cursors (
  portal_id, module_id, high_water, scan_index, scan_after, full_started_at, full_completed_at,
  last_reconciled_at, updated_at
)
VALUES (@portalId, @moduleId, @highWater, @scanIndex, @scanAfter, @fullStartedAt,
        @fullCompletedAt, @lastReconciledAt, @updatedAt)
ON CONFLICT (portal_id, module_id) DO UPDATE SET
  high_water = excluded.high_water, scan_index = excluded.scan_index,
  scan_after = excluded.scan_after,
  full_started_at = excluded.full_started_at, full_completed_at = excluded.full_completed_at,
  last_reconciled_at = excluded.last_reconciled_at, updated_at = excluded.updated_at;

-- name: census
-- Per module of a portal, what a backup archive's counts are compared with: the listed (not
-- trashed) records the service holds, as countServerCopies counts them, and how many of those
-- were created after @since (an archive's time).
SELECT m.api_name AS apiName, m.plural_name AS pluralName,
  count(r.row_key) AS records,
  count(CASE WHEN r.created_time > @since THEN 1 END) AS createdSince
FROM modules m
LEFT JOIN records r
  ON r.module_key = m.module_key AND r.list_state IN (0, 1) AND r.local_only = 0
WHERE m.portal_id = @portalId
GROUP BY m.module_key
ORDER BY m.module_key;

-- name: serverCopy
-- A record as the service last sent it (local edits live in record_edits, not here), with its
-- module's api name: what a backup's copy of the record is compared with.
SELECT r.id, m.api_name AS module, r.name, r.description, r.status_id AS statusId,
  r.layout_id AS layoutId, r.project_id AS projectId, r.owner_zpuid AS ownerZpuid,
  r.is_closed AS isClosed, r.is_external AS isExternal, r.custom
FROM records r JOIN modules m ON m.module_key = r.module_key
WHERE r.portal_id = ? AND r.id = ? AND r.local_only = 0 AND r.list_state IN (0, 1);

-- name: listedServerIds
-- Every listed server record of a portal with its module's api name.
SELECT r.id, m.api_name AS module, r.name
FROM records r JOIN modules m ON m.module_key = r.module_key
WHERE r.portal_id = ? AND r.local_only = 0 AND r.list_state IN (0, 1);

-- name: statusUse
-- Per status of a module, how many of its records (the recycle bin's and those created offline
-- included) are in it: shown beside each status, and a status in use is not removed (the service
-- refuses it too). One pass over the module's status index.
SELECT status_id AS id, count(*) AS records
FROM records WHERE module_key = @moduleKey AND status_id IS NOT NULL
GROUP BY status_id;

-- name: statusTimelineUse
-- Per status, the entries of the module's mirrored status timelines naming it (from or to): the
-- service keeps a status its records' history names.
SELECT value AS id, count(*) AS uses FROM (
  SELECT t.from_status_id AS value FROM status_timeline t
  JOIN records r ON r.portal_id = t.portal_id AND r.id = t.record_id
  WHERE r.module_key = @moduleKey
  UNION ALL
  SELECT t.to_status_id FROM status_timeline t
  JOIN records r ON r.portal_id = t.portal_id AND r.id = t.record_id
  WHERE r.module_key = @moduleKey
) WHERE value IS NOT NULL GROUP BY value;

-- name: followStatusClosedType
-- A status made closed or open on the service closes or reopens its records there without a new
-- last_updated_time, so no pull would bring it: the mirror's server copies follow the same way.
UPDATE records SET is_closed = @closed
WHERE module_key = @moduleKey AND status_id = @statusId AND is_closed IS NOT @closed;
