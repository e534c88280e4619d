-- The two time indexes hold each record's time as a number (seconds, milliseconds as the
-- fraction) instead of its 24 characters of text. Every stored time is a valid instant written
-- `YYYY-MM-DDTHH:mm:ss.SSSZ` (0021, the reader's checks), and those order as numbers exactly as
-- their text does, so the lists' sorts and ranges on these fields (recordSort.ts, toSql's
-- `indexedAsInstant`) and the overview's weekly counts (overview.sql) read the same rows in the
-- same order from smaller entries: at a million records records_by_created went from
-- 9,584 pages to 5,136 and records_by_updated from 13,446 to 8,985, and the overview's weekly
-- chart, which walks both, answers 12-48 ms sooner right after another connection's commit
-- (bench/README.md, "The time indexes as numbers").
-- Every statement that should use them writes the same expression (`instantSql`):
-- test/unit/overview/overviewPlans.test.ts and test/unit/store/mirror/instantIndexPlans.test.ts
-- hold them to it. A time kept as sent because its UTC year passes 9999 (instant.ts) is NULL
-- here: src/main/store/mirror/README.md, "Times are stored one way".
DROP INDEX records_by_created;
DROP INDEX records_by_updated;
CREATE INDEX records_by_created ON records (module_key, list_state, unixepoch(created_time, 'subsec'));
CREATE INDEX records_by_updated ON records (module_key, list_state, unixepoch(last_updated_time, 'subsec'), id);
