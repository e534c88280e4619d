-- The outbox's history (src/main/outbox/historyRepository.ts; table: 0015_outbox_history.sql).

-- name: insert
INSERT INTO outbox_history (op_seq, portal_id, module_id, record_id, record_name, module_name,
  kind, action, fields, comment, queued_at, sent_at, answered_at, method, path, request_body,
  request_length, status, answer, answer_length, requests, note)
VALUES (@opId, @portalId, @moduleId, @recordId, @recordName, @module, @kind, @action, @fields,
  @comment, @queuedAt, @sentAt, @answeredAt, @method, @path, @requestBody, @requestLength,
  @status, @answer, @answerLength, @requests, @note)
RETURNING id;

-- name: purge
DELETE FROM outbox_history WHERE answered_at < @cutoff;

-- name: page
-- The search: `@pattern` is a LIKE pattern (`%` and `_` of the user's text escaped with `\`),
-- NULL for none; `@kinds` a JSON array of kinds, NULL for every kind. LIKE ignores the case of
-- ASCII letters only (SQLite's default). `count` below is the same condition.
SELECT * FROM outbox_history
WHERE (@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))
  AND (@pattern IS NULL
       OR record_name LIKE @pattern ESCAPE '\' OR module_name LIKE @pattern ESCAPE '\'
       OR record_id LIKE @pattern ESCAPE '\' OR kind LIKE @pattern ESCAPE '\'
       OR action LIKE @pattern ESCAPE '\' OR fields LIKE @pattern ESCAPE '\'
       OR path LIKE @pattern ESCAPE '\' OR request_body LIKE @pattern ESCAPE '\'
       OR answer LIKE @pattern ESCAPE '\' OR note LIKE @pattern ESCAPE '\'
       OR comment LIKE @pattern ESCAPE '\')
ORDER BY id DESC
LIMIT @limit OFFSET @offset;

-- name: count
SELECT count(*) FROM outbox_history
WHERE (@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))
  AND (@pattern IS NULL
       OR record_name LIKE @pattern ESCAPE '\' OR module_name LIKE @pattern ESCAPE '\'
       OR record_id LIKE @pattern ESCAPE '\' OR kind LIKE @pattern ESCAPE '\'
       OR action LIKE @pattern ESCAPE '\' OR fields LIKE @pattern ESCAPE '\'
       OR path LIKE @pattern ESCAPE '\' OR request_body LIKE @pattern ESCAPE '\'
       OR answer LIKE @pattern ESCAPE '\' OR note LIKE @pattern ESCAPE '\'
       OR comment LIKE @pattern ESCAPE '\')
