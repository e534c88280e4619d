-- Bulk edits and what each did to the outbox's queue (src/main/bulkEdit/bulkEditRepository.ts).
-- Tables: 0018_bulk_edits.sql (op_before, op_after: 0024; planned, finished: 0032); outbox_ops:
-- 0008_outbox.sql.

-- name: insertBulkEdit
INSERT INTO bulk_edits (portal_id, module_id, field, label, action, value, created_at, planned,
                        finished)
VALUES (@portalId, @moduleId, @field, @label, @action, @value, @now, @planned, 0)
RETURNING id;

-- name: markFinished
-- The apply's last batch is written (or an undo stopped it): not a bulk edit stopped half way.
UPDATE bulk_edits SET finished = 1 WHERE id = ?;

-- name: insertRecord
INSERT INTO bulk_edit_records (bulk_edit_id, record_id, op_seq, coalesced, previous, written,
                               op_before, op_after)
VALUES (@bulkEditId, @recordId, @opSeq, @coalesced, @previous, @written, @opBefore, @opAfter);

-- name: bulkEdit
SELECT * FROM bulk_edits WHERE id = ?;

-- name: recordsOf
SELECT * FROM bulk_edit_records WHERE bulk_edit_id = ? ORDER BY rowid;

-- name: markUndone
UPDATE bulk_edits SET state = 'undone' WHERE id = ?;

-- name: followRequeuedOp
-- A bulk edit's link to the operation holding its change follows it to its new place (the outbox
-- moved it to the end of its queue: resolveConflict.ts, keep mine).
UPDATE bulk_edit_records SET op_seq = @to WHERE op_seq = @from;

-- name: deleteBulkEdit
DELETE FROM bulk_edits WHERE id = ?;

-- name: groups
-- Bulk edits still queued, newest first, with how many of their records' operations are still in
-- the outbox (and of those, how many are being sent or have failed), and how many of the user's
-- own queued edits they dropped (the bulk value was the service's) that an undo would queue again:
-- the operation is gone, and no operation of the record holds the field since (bulkUndo's
-- 'requeue').
SELECT b.*,
       (SELECT count(*) FROM bulk_edit_records r WHERE r.bulk_edit_id = b.id) AS records,
       (SELECT count(*) FROM bulk_edit_records r JOIN outbox_ops o ON o.seq = r.op_seq
        WHERE r.bulk_edit_id = b.id) AS queued,
       (SELECT count(*) FROM bulk_edit_records r
        WHERE r.bulk_edit_id = b.id AND r.written IS NULL AND r.previous IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM outbox_ops o WHERE o.seq = r.op_seq)
          AND NOT EXISTS (SELECT 1 FROM outbox_ops o
                          WHERE o.portal_id = b.portal_id AND o.record_id = r.record_id
                            AND o.kind IN ('update', 'create')
                            AND json_type(o.fields, '$."' || b.field || '"') IS NOT NULL)) AS reverted,
       (SELECT count(*) FROM bulk_edit_records r JOIN outbox_ops o ON o.seq = r.op_seq
        WHERE r.bulk_edit_id = b.id AND o.state = 'sending') AS sending,
       (SELECT count(*) FROM bulk_edit_records r JOIN outbox_ops o ON o.seq = r.op_seq
        WHERE r.bulk_edit_id = b.id AND o.state IN ('failed', 'conflict')) AS stuck
FROM bulk_edits b
WHERE b.state = 'queued'
ORDER BY b.id DESC
LIMIT @limit;

-- name: entriesOfField
-- The entries kept to give back of a module's bulk edits of one field not undone: what follows an
-- option rename queued after them (bulkEditService.followRenamedOptions).
SELECT r.rowid AS row, r.previous, r.written
FROM bulk_edit_records r JOIN bulk_edits b ON b.id = r.bulk_edit_id
WHERE b.portal_id = @portalId AND b.module_id = @moduleId AND b.field = @field
  AND b.state = 'queued';

-- name: setEntries
UPDATE bulk_edit_records SET previous = @previous, written = @written WHERE rowid = @row;

-- name: valuesOfField
-- The values the user gave those bulk edits (the Outbox's groups show them).
SELECT id, value FROM bulk_edits
WHERE portal_id = @portalId AND module_id = @moduleId AND field = @field AND state = 'queued'
  AND value IS NOT NULL;

-- name: setValue
UPDATE bulk_edits SET value = @value WHERE id = @id;
