-- The outbox's history names the comment a comment change concerned (its text when it went, at
-- most HISTORY_COMMENT_MAX characters; src/shared/ipc/areas/outboxHistory.ts): a delivered
-- "delete comment" otherwise said only which record the comment was on. NULL for other changes
-- and for rows written before.
ALTER TABLE outbox_history ADD COLUMN comment TEXT;
