-- What a stop half way through queuing leaves. The records import's journal
-- (src/main/recordsImport/): an import confirmed and still being queued, and per row of its file
-- the outbox operation it wrote or folded into, written in the same transaction as that
-- operation. A run's operations are held from the replay until its last row is queued (then the
-- run is deleted, and they all go); a restart finding a run knows it was stopped half way
-- (killed, power lost, closed) and offers to finish it or take back what it queued: never half an
-- import sent, never a row queued twice.

CREATE TABLE import_runs (
  id          TEXT PRIMARY KEY,                       -- the import's id (records.importOpen)
  portal_id   TEXT NOT NULL,
  module_id   TEXT NOT NULL,
  file_name   TEXT NOT NULL,
  confirmed   INTEGER NOT NULL,                       -- rows the check found ready: confirmed
  -- What a restart needs to finish it: the file's columns and fields, the mapping, the reading
  -- (zone, locale), and where the file is kept (`<data directory>/import-runs/<id>`).
  import      TEXT NOT NULL CHECK (json_valid(import)),
  started_at  TEXT NOT NULL
) STRICT;

CREATE TABLE import_run_rows (
  import_id  TEXT NOT NULL REFERENCES import_runs (id) ON DELETE CASCADE,
  row        INTEGER NOT NULL,                        -- the row's number in the file (header: 1)
  record_id  TEXT NOT NULL,
  op_seq     INTEGER NOT NULL,                        -- the outbox operation holding the change
  created    INTEGER NOT NULL CHECK (created IN (0, 1)),  -- 1: the row is a new record's create
  -- An update's fields: {field: {previous, written, opBefore, opAfter}} as bulk_edit_records keeps
  -- them (0018, 0024), so taking the row back is the bulk edit's undo, field by field.
  fields     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(fields)),
  PRIMARY KEY (import_id, row)
) STRICT;
CREATE INDEX import_run_rows_op ON import_run_rows (op_seq);

-- A bulk edit's apply (0018, src/main/bulkEdit/) likewise: the records its preview counted as
-- changing, and whether its last batch was written. One not finished that no apply is writing
-- was stopped by the app's end: the Outbox says how many of how many were queued. Bulk edits
-- made before this migration were finished (1); their planned count is unknown (NULL).
ALTER TABLE bulk_edits ADD COLUMN planned INTEGER;
ALTER TABLE bulk_edits ADD COLUMN finished INTEGER NOT NULL DEFAULT 1 CHECK (finished IN (0, 1));
