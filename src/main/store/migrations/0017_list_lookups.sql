-- Lookups for the two list filters that read every row of a module (issue 18, part 3): a
-- multi-select's "includes", and `contains` on names. They only find candidates and counts; the
-- filter SQL still decides each row, and the lists must keep agreeing with the filter language's
-- in-memory evaluator, so both are derived from the rows by SQL and kept in step with every write
-- (src/main/store/mirror/listLookups.ts reads them; the README there says how).

-- The text items of the JSON arrays in each listed server copy's custom fields: a multi-select's
-- option names (what `pd_j.type = 'text' AND pd_j.value IN (...)` compares in the filter SQL).
-- Only rows lists read from `records` (list_state 0): rows with pending edits are filtered from
-- their merged JSON, trashed rows are not listed. Keyed for the filter: a field's records holding
-- an option are one range, counted without reading a record.
--
-- Multi-user lists are objects ({zpuid, name}) and are not held: they doubled the rows and the
-- upsert's cost (bench/README.md), and no list target names them.
--
-- Who keeps it:
-- - inserted rows: the writer that inserts them, one statement per batch (addMultiValues in
--   queries/mirrorRecords.sql, the same SELECT as below); an AFTER INSERT trigger cost every
--   inserted record 18 µs of CPU (a statement journal per row), the batch 7;
-- - updated and deleted rows: the triggers below, whoever writes (the upsert, reconciliation,
--   the outbox's offline records, trash and restore, an option relabelled, the record_edits
--   triggers that move a row out of and back into list_state 0, a module's cascade). A deletion
--   removes what the old row's values give, by the same SELECT, so no index by row_key is needed.
-- The SELECT is written word for word alike in each place; test/unit/store/mirror/listLookups.test.ts
-- compares the table with it after every kind of write.
CREATE TABLE record_multi_values (
  module_key INTEGER NOT NULL,
  field      TEXT NOT NULL,                     -- the key in records.custom (a field's api_name)
  value      TEXT NOT NULL,                     -- a text item of its array (an option name)
  row_key    INTEGER NOT NULL,
  PRIMARY KEY (module_key, field, value, row_key)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER records_multi_values_update AFTER UPDATE OF module_key, custom, list_state ON records
WHEN (old.list_state = 0 OR new.list_state = 0)
  AND (old.module_key IS NOT new.module_key OR old.custom IS NOT new.custom
       OR old.list_state IS NOT new.list_state)
BEGIN
  DELETE FROM record_multi_values
  WHERE old.list_state = 0 AND instr(old.custom, '[') > 0
    AND (module_key, field, value, row_key) IN (
      SELECT old.module_key, f.key, i.value, old.row_key
      FROM json_each(old.custom) f, json_each(f.value) i
      WHERE f.type = 'array' AND i.type = 'text');
  -- ON CONFLICT, not OR IGNORE: an outer statement's conflict clause (the record upsert's)
  -- replaces a trigger's OR; an item listed twice is one row.
  INSERT INTO record_multi_values (module_key, field, value, row_key)
  SELECT new.module_key, f.key, i.value, new.row_key
  FROM json_each(new.custom) f, json_each(f.value) i
  WHERE new.list_state = 0 AND instr(new.custom, '[') > 0
    AND f.type = 'array' AND i.type = 'text'
  ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER records_multi_values_delete AFTER DELETE ON records
WHEN old.list_state = 0 AND instr(old.custom, '[') > 0
BEGIN
  DELETE FROM record_multi_values
  WHERE (module_key, field, value, row_key) IN (
    SELECT old.module_key, f.key, i.value, old.row_key
    FROM json_each(old.custom) f, json_each(f.value) i
    WHERE f.type = 'array' AND i.type = 'text');
END;

INSERT INTO record_multi_values (module_key, field, value, row_key)
SELECT r.module_key, f.key, i.value, r.row_key
FROM records r, json_each(r.custom) f, json_each(f.value) i
WHERE r.list_state = 0 AND f.type = 'array' AND i.type = 'text'
ON CONFLICT DO NOTHING;

-- Trigrams of every record's folded name, for `contains` (SQLite's FTS5 trigram tokenizer): a
-- needle of three or more characters is a phrase of its trigrams, which a name holds exactly when
-- it holds the needle. Names are folded by the app (name_fold, foldText), so the tokenizer folds
-- nothing (case_sensitive 1, no diacritics removed): FTS5's own folding is not the filter
-- language's ('ß' and 'ss'). Contentless: only rowids (row_key) come back, and a row leaves it by
-- its old text ('delete'), which the full-text queue keeps below. Not contentless_delete: its
-- tombstones made every later query slow (20,000 rows deleted: 100,000 matches counted in 87 ms
-- of CPU instead of 9).
--
-- Kept in bulk with the full-text index (queries/mirrorFullText.sql, the same queue and "indexed
-- through" mark): a list reads the rows still waiting for a flush from `records` and the others
-- from here (listLookups.ts). Every row is here, whatever its module and list_state: the lists
-- count a module's matches as all matches minus the others (or scan the module when it is the
-- smaller).
CREATE VIRTUAL TABLE record_name_trigrams USING fts5 (
  name_fold, content = '', tokenize = 'trigram case_sensitive 1'
);

-- The queue keeps the folded name the trigrams hold (NULL: the row is not in them), so 0002's
-- triggers are made again to write it, and to queue a change of name_fold alone (a fold that
-- changed between versions would change it without the name).
ALTER TABLE records_fts_queue ADD COLUMN old_name_fold TEXT;

DROP TRIGGER records_fts_update;
CREATE TRIGGER records_fts_update AFTER UPDATE OF name, description, name_fold ON records
WHEN (old.name IS NOT new.name OR old.description IS NOT new.description
      OR old.name_fold IS NOT new.name_fold)
  AND old.row_key <= (SELECT indexed_through FROM fts_progress WHERE name = 'records')
BEGIN
  INSERT INTO records_fts_queue (row_key, old_name, old_description, old_portal_id, old_name_fold)
  VALUES (old.row_key, old.name, old.description, old.portal_id, old.name_fold)
  ON CONFLICT (row_key) DO NOTHING;
END;

DROP TRIGGER records_fts_delete;
CREATE TRIGGER records_fts_delete AFTER DELETE ON records
WHEN old.row_key <= (SELECT indexed_through FROM fts_progress WHERE name = 'records')
BEGIN
  INSERT INTO records_fts_queue (row_key, old_name, old_description, old_portal_id, old_name_fold)
  VALUES (old.row_key, old.name, old.description, old.portal_id, old.name_fold)
  ON CONFLICT (row_key) DO NOTHING;
END;

-- The indexed rows but those queued already (their queue entries have no old_name_fold): the next
-- flush adds those with their names as they are then.
INSERT INTO record_name_trigrams (rowid, name_fold)
SELECT row_key, name_fold FROM records
WHERE row_key <= (SELECT indexed_through FROM fts_progress WHERE name = 'records')
  AND row_key NOT IN (SELECT row_key FROM records_fts_queue);
