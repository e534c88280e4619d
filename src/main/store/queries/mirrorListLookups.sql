-- What the lists read of the list lookups of migrations/0017_list_lookups.sql
-- (src/main/store/mirror/listLookups.ts). The rows a batch inserts are added to
-- record_multi_values by its writer (mirrorInsertedRows.sql).

-- name: multiValueCount
-- A module's listed records whose multi-select holds one option: one key range.
SELECT count(*) FROM record_multi_values WHERE module_key = ? AND field = ? AND value = ?;

-- name: multiValueRange
-- One option's rows, in row_key order: listLookups.ts counts several options as the UNION of
-- theirs, which SQLite merges (each range is in order) instead of sorting every row key.
SELECT row_key FROM record_multi_values WHERE module_key = ? AND field = ? AND value = ?

-- name: multiValuesCount
-- ... holding any of many options (a JSON array of names): a record holding two counts once.
SELECT count(*) FROM (
  SELECT DISTINCT row_key FROM record_multi_values
  WHERE module_key = ? AND field = ? AND value IN (SELECT value FROM json_each(?))
);

-- name: multiValueRows
-- Their row keys, as the rows a list statement starts from (a subquery of it).
SELECT DISTINCT row_key FROM record_multi_values
WHERE module_key = ? AND field = ? AND value IN (SELECT value FROM json_each(?))

-- name: waitingNames
-- The name trigrams are flushed in batches with the full-text index: rows above its mark are not
-- in them yet, and queued rows (renamed or deleted since) are in them with their old name. Those
-- rows are "waiting" (their keys, a subquery); every other row is in them as it is.
SELECT row_key FROM records
WHERE row_key > (SELECT indexed_through FROM fts_progress WHERE name = 'records')
UNION SELECT row_key FROM records_fts_queue

-- name: waitingNameCount
-- How many rows wait, at most (the mark to the greatest row_key may hold deleted rows' keys).
SELECT max(0, coalesce((SELECT max(row_key) FROM records), 0)
              - (SELECT indexed_through FROM fts_progress WHERE name = 'records'))
     + (SELECT count(*) FROM records_fts_queue);

-- name: namesQueued
SELECT EXISTS (SELECT 1 FROM records_fts_queue);

-- name: nameMatchCount
-- Records of every module whose name in the trigrams holds a needle (phrases joined by OR).
SELECT count(*) FROM record_name_trigrams WHERE record_name_trigrams MATCH ?;

-- name: nameMatchCountUnqueued
-- ... leaving out queued rows, whose name there is the old one (one pass over the matches).
SELECT count(*) FROM (
  SELECT rowid AS row_key FROM record_name_trigrams WHERE record_name_trigrams MATCH ?
) m
WHERE m.row_key NOT IN (SELECT row_key FROM records_fts_queue);

-- name: nameMatchRows
-- The rows a list statement starts from (a subquery of it): the trigrams' matches and the waiting
-- rows, which the statement's own test of each name then decides.
SELECT rowid AS row_key FROM record_name_trigrams WHERE record_name_trigrams MATCH ?
UNION SELECT row_key FROM records
WHERE row_key > (SELECT indexed_through FROM fts_progress WHERE name = 'records')
UNION SELECT row_key FROM records_fts_queue
