-- What a bulk edit's fold did to the rest of the operation it folded into (src/main/bulkEdit/),
-- so that its undo gives the operation back exactly: writing a queued operation again counts one
-- more edit, dates it, and ends a backoff (outbox.sql rewriteOp). Per record of a bulk edit, the
-- operation's status (state, error, attempts, next_attempt_at, edits, queued_at, updated_at) as a
-- JSON object:
-- - op_before: before the fold (NULL: the bulk edit made the operation, or the row predates 0024);
--   an undo puts it back, or queues a dropped operation again with it;
-- - op_after: right after it (NULL: the operation went, or as above); the undo puts op_before back
--   only while the operation still has this status, so a send tried since (a refusal, a backoff)
--   stays as the replay left it.
ALTER TABLE bulk_edit_records ADD COLUMN op_before TEXT
  CHECK (op_before IS NULL OR json_valid(op_before));
ALTER TABLE bulk_edit_records ADD COLUMN op_after TEXT
  CHECK (op_after IS NULL OR json_valid(op_after));
