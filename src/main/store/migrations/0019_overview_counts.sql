-- The portal overview's "records created per week" (src/main/overview/): counted per week as an
-- index range, like the other charts (per module and status from records_by_status, updated per
-- week from records_by_updated). Without it the count reads every record: 3.6 s at a million.
-- An index, not count tables kept by triggers: triggers on records cost the sync's changed-record
-- upsert about 42 % (bench/README.md, "Overview"); this index costs what bench:store shows there.
CREATE INDEX records_by_created ON records (module_key, list_state, created_time);
