-- The listed records of each module counted per hour of their created_time (UTC), for the
-- overview's weekly chart (src/main/overview/overviewCounts.ts): a week's created records are its
-- hours' counts, plus or minus the few records of the hours its bounds cut (a zone whose offset is
-- not whole hours, read from records_by_created), instead of a walk of records_by_created over
-- every record (about 45 ms at a million right after another connection's commit; the chart
-- missed its 100 ms: bench/README.md, "Created per hour").
--
-- Counted as the weekly chart counts: list_state 0 or 1 (2, the recycle bin, is not listed), and a
-- time with a number (a time kept as sent past year 9999 has none: it is in no week either).
-- `hour` is floor(epoch seconds / 3600), written so SQLite's integer division never meets a
-- negative number (62167219200 seconds from 0000-01-01 to 1970, 17268672 hours).
--
-- Who keeps it, as record_multi_values (0017):
-- - inserted rows: the writer that inserts them, one statement per batch (addCreatedHours in
--   queries/mirrorInsertedRows.sql, src/main/store/mirror/insertedRows.ts); an AFTER INSERT
--   trigger would cost every inserted record a statement journal (records has no insert trigger);
-- - updated and deleted rows: the triggers below, whoever writes. A record's created_time
--   rarely changes, so the update trigger's condition is false for a pulled change.
-- Hours whose records all left keep a row of 0. test/unit/store/mirror/createdHours.test.ts
-- compares the table with a count of the records after every kind of write.
CREATE TABLE record_created_hours (
  module_key INTEGER NOT NULL REFERENCES modules (module_key) ON DELETE CASCADE,
  hour       INTEGER NOT NULL,
  records    INTEGER NOT NULL,
  PRIMARY KEY (module_key, hour)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER records_created_hours_update
AFTER UPDATE OF module_key, list_state, created_time ON records
WHEN old.module_key IS NOT new.module_key
  OR (old.list_state < 2) IS NOT (new.list_state < 2)
  OR old.created_time IS NOT new.created_time
BEGIN
  UPDATE record_created_hours SET records = records - 1
  WHERE old.list_state < 2 AND module_key = old.module_key
    AND hour = (unixepoch(old.created_time) + 62167219200) / 3600 - 17268672;
  -- ON CONFLICT of its own: an outer statement's conflict clause would replace an OR.
  INSERT INTO record_created_hours (module_key, hour, records)
  SELECT new.module_key, (unixepoch(new.created_time) + 62167219200) / 3600 - 17268672, 1
  WHERE new.list_state < 2 AND unixepoch(new.created_time) IS NOT NULL
  ON CONFLICT DO UPDATE SET records = records + 1;
END;

CREATE TRIGGER records_created_hours_delete AFTER DELETE ON records
WHEN old.list_state < 2
BEGIN
  UPDATE record_created_hours SET records = records - 1
  WHERE module_key = old.module_key
    AND hour = (unixepoch(old.created_time) + 62167219200) / 3600 - 17268672;
END;

INSERT INTO record_created_hours (module_key, hour, records)
SELECT module_key, (unixepoch(created_time) + 62167219200) / 3600 - 17268672 AS hour, count(*)
FROM records
WHERE list_state < 2 AND unixepoch(created_time) IS NOT NULL
GROUP BY module_key, hour;
