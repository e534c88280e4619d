-- The records import's journal (src/main/recordsImport/importRunsRepository.ts).
-- Tables: 0032_queuing_journal.sql; outbox_ops: 0008_outbox.sql.

-- name: insertRun
INSERT INTO import_runs (id, portal_id, module_id, file_name, confirmed, import, started_at)
VALUES (@id, @portalId, @moduleId, @fileName, @confirmed, @import, @now);

-- name: runs
SELECT r.*, (SELECT count(*) FROM import_run_rows w WHERE w.import_id = r.id) AS queued
FROM import_runs r
ORDER BY r.started_at, r.id;

-- name: insertRow
INSERT INTO import_run_rows (import_id, row, record_id, op_seq, created, fields)
VALUES (@importId, @row, @recordId, @opSeq, @created, @fields);

-- name: rowRecords
SELECT row, record_id FROM import_run_rows WHERE import_id = ?;

-- name: lastRows
-- The rows queued last first, a batch at a time: taken back in the reverse of their order.
SELECT * FROM import_run_rows WHERE import_id = @importId ORDER BY row DESC LIMIT @limit;

-- name: deleteRow
DELETE FROM import_run_rows WHERE import_id = @importId AND row = @row;

-- name: deleteRun
-- Its rows go with it (ON DELETE CASCADE): the operations it held go to the replay at once.
DELETE FROM import_runs WHERE id = ?;
