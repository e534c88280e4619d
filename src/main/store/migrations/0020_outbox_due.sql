-- The replay's looks for work (src/main/outbox/queries/outbox.sql: readyHeads, nextAttemptAt) read
-- the operations that may go, or wait out a backoff, straight from this index: without it each
-- look walked every queued operation, and queuing 4,000 changes took 10 s (bench/outboxQueue).
-- A full index, not a partial one: statements compare next_attempt_at with bound values
-- (migrations/README.md). The rowid (seq) ends every index, so each (state, time) is in seq order.
CREATE INDEX outbox_ops_due ON outbox_ops (state, next_attempt_at);
