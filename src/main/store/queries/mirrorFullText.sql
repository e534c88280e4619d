-- Flushing the full-text indexes (src/main/store/mirror/fullTextIndex.ts; the design and why:
-- migrations/0002_mirror.sql). Queued rows first: remove the text the index holds, add the
-- current text of those still there; then the rows above the "indexed through" mark. The name
-- trigrams (migrations/0017_list_lookups.sql) follow the same queue and mark, in the same flush.

-- name: recordsPendingRows
-- Rows a flush would index: new row_keys (an upper bound: AUTOINCREMENT leaves gaps where rows
-- were deleted before being indexed) and queued updates and deletions.
SELECT max(0, coalesce((SELECT max(row_key) FROM records), 0)
              - (SELECT indexed_through FROM fts_progress WHERE name = 'records'))
     + (SELECT count(*) FROM records_fts_queue);

-- name: commentsPendingRows
SELECT max(0, coalesce((SELECT max(row_key) FROM comments), 0)
              - (SELECT indexed_through FROM fts_progress WHERE name = 'comments'))
     + (SELECT count(*) FROM comments_fts_queue);

-- name: recordsPending
SELECT EXISTS (SELECT 1 FROM records_fts_queue)
    OR coalesce((SELECT max(row_key) FROM records), 0)
       > (SELECT indexed_through FROM fts_progress WHERE name = 'records');

-- name: recordsRemoveQueued
INSERT INTO records_fts (records_fts, rowid, name, description, portal_id)
SELECT 'delete', row_key, old_name, old_description, old_portal_id FROM records_fts_queue;

-- name: recordsAddQueued
-- Every join here reads the queue and looks each row up by row_key: CROSS JOIN keeps SQLite to
-- that order. Left to choose, it scanned a whole records index per flush step for
-- namesAddQueued (1.3 million entries, ~50 ms, at every step of 1,000 new rows even with the
-- queue empty: most of the writer thread's time in bench:scale). fullTextPlans.test.ts holds
-- every statement here to searches of records and comments.
INSERT INTO records_fts (rowid, name, description, portal_id)
SELECT r.row_key, r.name, r.description, r.portal_id
FROM records_fts_queue q CROSS JOIN records r ON r.row_key = q.row_key;

-- name: namesRemoveQueued
-- A contentless FTS5 row goes by its old text (NULL: the row was not in the trigrams). Rows whose
-- folded name is the same (a description changed) stay as they are.
INSERT INTO record_name_trigrams (record_name_trigrams, rowid, name_fold)
SELECT 'delete', q.row_key, q.old_name_fold
FROM records_fts_queue q LEFT JOIN records r ON r.row_key = q.row_key
WHERE q.old_name_fold IS NOT NULL AND q.old_name_fold IS NOT r.name_fold;

-- name: namesAddQueued
INSERT INTO record_name_trigrams (rowid, name_fold)
SELECT r.row_key, r.name_fold
FROM records_fts_queue q CROSS JOIN records r ON r.row_key = q.row_key
WHERE q.old_name_fold IS NOT r.name_fold;

-- name: recordsClearQueue
DELETE FROM records_fts_queue;

-- name: recordsAddNew
-- New rows up to :through (a flush in steps indexes a bounded range each: flushStep).
INSERT INTO records_fts (rowid, name, description, portal_id)
SELECT row_key, name, description, portal_id FROM records
WHERE row_key > (SELECT indexed_through FROM fts_progress WHERE name = 'records')
  AND row_key <= :through;

-- name: namesAddNew
INSERT INTO record_name_trigrams (rowid, name_fold)
SELECT row_key, name_fold FROM records
WHERE row_key > (SELECT indexed_through FROM fts_progress WHERE name = 'records')
  AND row_key <= :through;

-- name: recordsMark
-- Rows above the mark wait for a later flush (lists count them in: mirrorListLookups.sql).
UPDATE fts_progress SET indexed_through = min(:through, (SELECT max(row_key) FROM records))
WHERE name = 'records' AND min(:through, (SELECT max(row_key) FROM records)) > indexed_through;

-- name: recordsMarked
SELECT indexed_through FROM fts_progress WHERE name = 'records';

-- name: commentsPending
SELECT EXISTS (SELECT 1 FROM comments_fts_queue)
    OR coalesce((SELECT max(row_key) FROM comments), 0)
       > (SELECT indexed_through FROM fts_progress WHERE name = 'comments');

-- name: commentsRemoveQueued
INSERT INTO comments_fts (comments_fts, rowid, content, portal_id)
SELECT 'delete', row_key, old_content, old_portal_id FROM comments_fts_queue;

-- name: commentsAddQueued
INSERT INTO comments_fts (rowid, content, portal_id)
SELECT c.row_key, c.content, c.portal_id
FROM comments_fts_queue q CROSS JOIN comments c ON c.row_key = q.row_key;

-- name: commentsClearQueue
DELETE FROM comments_fts_queue;

-- name: commentsAddNew
INSERT INTO comments_fts (rowid, content, portal_id)
SELECT row_key, content, portal_id FROM comments
WHERE row_key > (SELECT indexed_through FROM fts_progress WHERE name = 'comments');

-- name: commentsMark
UPDATE fts_progress SET indexed_through = (SELECT max(row_key) FROM comments)
WHERE name = 'comments' AND (SELECT max(row_key) FROM comments) > indexed_through;
