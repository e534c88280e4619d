-- records_by_name (module_key, list_state, name_fold, id) served only a name's `is` filter (an
-- equality on name_fold) and the counts of names outside a module, which records_by_name_sort
-- (0016) serves as well: it holds name_fold too, and an `is` filter now also compares the sort
-- key, a function of the folded name (recordFilterSql.ts). Each record's random place in one more
-- index was a large part of a pull's cost a record (bench/README.md, issue 18).
DROP INDEX IF EXISTS records_by_name;
