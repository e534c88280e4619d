-- Full-text search of a portal's records and comments (src/main/store/mirror/recordSearch.ts).
--
-- @match scopes to the portal inside FTS5 (`portal_id : "…" AND …`). Hits come newest first
-- (row_key descending), which FTS5 serves by walking its lists backwards and stopping at @limit;
-- highlight() and snippet() run only for the rows returned, marking the matched words with
-- char(2) and char(3) (highlightParts.ts). Not bm25: it computes each phrase's document
-- frequency by reading the phrase's whole list on every query (for the portal phrase, a million
-- entries), half a second per search on a million records.

-- name: recordHits
SELECT r.id AS recordId, m.id AS moduleId,
       highlight(records_fts, 0, char(2), char(3)) AS name,
       snippet(records_fts, 1, char(2), char(3), '…', @snippetWords) AS snippet
FROM records_fts
JOIN records r ON r.row_key = records_fts.rowid
JOIN modules m ON m.module_key = r.module_key
WHERE records_fts MATCH @match AND r.list_state IN (0, 1)
  AND (@moduleId IS NULL OR m.id = @moduleId)
ORDER BY records_fts.rowid DESC
LIMIT @limit;

-- name: commentHits
SELECT c.record_id AS recordId, c.id AS commentId, m.id AS moduleId, r.name AS name,
       snippet(comments_fts, 0, char(2), char(3), '…', @snippetWords) AS snippet
FROM comments_fts
JOIN comments c ON c.row_key = comments_fts.rowid
JOIN records r ON r.portal_id = c.portal_id AND r.id = c.record_id
JOIN modules m ON m.module_key = r.module_key
WHERE comments_fts MATCH @match AND r.list_state IN (0, 1)
  AND (@moduleId IS NULL OR m.id = @moduleId)
ORDER BY comments_fts.rowid DESC
LIMIT @limit;
