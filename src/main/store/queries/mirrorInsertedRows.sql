-- What rows a batch just inserted into `records` add to the tables kept beside them, run by their
-- writer once per batch (src/main/store/mirror/insertedRows.ts) instead of an insert trigger per
-- row: `records` has none, since a trigger costs every inserted record a statement journal.
-- Updates and deletions are kept by the migrations' triggers. Each statement takes the rows'
-- row_keys as a JSON array.

-- name: addMultiValues
-- record_multi_values (migrations/0017_list_lookups.sql): the same SELECT as its triggers.
INSERT INTO record_multi_values (module_key, field, value, row_key)
SELECT r.module_key, f.key, i.value, r.row_key
FROM records r, json_each(r.custom) f, json_each(f.value) i
WHERE r.row_key IN (SELECT value FROM json_each(?)) AND r.list_state = 0
  AND instr(r.custom, '[') > 0 AND f.type = 'array' AND i.type = 'text'
ON CONFLICT DO NOTHING;

-- name: addCreatedHours
-- record_created_hours (migrations/0023_created_hours.sql): the same hour and condition as its
-- triggers, a batch's rows of one hour added at once.
INSERT INTO record_created_hours (module_key, hour, records)
SELECT r.module_key, (unixepoch(r.created_time) + 62167219200) / 3600 - 17268672 AS hour, count(*)
FROM records r
WHERE r.row_key IN (SELECT value FROM json_each(?)) AND r.list_state < 2
  AND unixepoch(r.created_time) IS NOT NULL
GROUP BY r.module_key, hour
ON CONFLICT DO UPDATE SET records = records + excluded.records;
