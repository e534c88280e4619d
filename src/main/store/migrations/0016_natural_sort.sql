-- Names sort in natural order (issue 19: '#148' before '#1014'): digit runs by value, the rest
-- as before (folded text). SQLite cannot take a collation from better-sqlite3, so each record keeps
-- the name's sort key, naturalSortKey(name) (packages/portal-api/src/domain/naturalOrder.ts), whose
-- byte order is that order; every writer of records.name writes it too (recordRepository,
-- localEditsRepository, and mergeRecordEdits for the edited rows lists read).
--
-- A plain column, not a generated one: SQLite never treats an index holding a generated column as
-- covering, and the key needs the application-defined function, which a connection without it
-- could then not even read.
ALTER TABLE records ADD COLUMN name_sort TEXT NOT NULL DEFAULT '';

-- The stored rows get their key here: Store.open registers pd_natural_key before migrating.
UPDATE records SET name_sort = pd_natural_key(name);

-- The name order is now this index's walk; records_by_name (name_fold) stays for name filters.
-- name_fold at the end: a name filter on a list sorted by name reads this index alone (the first
-- window of a `contains` matching few of a million names then walks the index, not the rows).
CREATE INDEX records_by_name_sort ON records (module_key, list_state, name_sort, id, name_fold);
