-- The outbox's operation log, its overlay rows, records created offline and the mirror rows a
-- replay writes (src/main/outbox/outboxRepository.ts). Tables: 0008_outbox.sql, 0002_mirror.sql.

-- name: insertOp
INSERT INTO outbox_ops (portal_id, module_id, record_id, kind, fields, comment_id, content,
                        base_content, action, queued_at, updated_at)
VALUES (@portalId, @moduleId, @recordId, @kind, @fields, @commentId, @content, @baseContent,
        @action, @now, @now)
RETURNING seq;

-- name: insertOpAt
-- An update put back at its old place in the queue, with the status it had: the undo of a bulk
-- edit that had dropped it.
INSERT INTO outbox_ops (seq, portal_id, module_id, record_id, kind, fields, state, error, attempts,
                        next_attempt_at, edits, queued_at, updated_at)
VALUES (@seq, @portalId, @moduleId, @recordId, 'update', @fields, @state, @error, @attempts,
        @nextAttemptAt, @edits, @queuedAt, @updatedAt);

-- name: restoreOp
-- An unsent operation given back as it was before someone else's change folded into it (the undo
-- of a bulk edit): its fields and what the fold changed besides (rewriteOp).
UPDATE outbox_ops
SET fields = @fields, state = @state, error = @error, attempts = @attempts,
    next_attempt_at = @nextAttemptAt, edits = @edits, updated_at = @updatedAt
WHERE seq = @seq;

-- name: rewriteOp
-- A coalesced edit: new fields, one more edit; a refused op the user edited goes out again.
UPDATE outbox_ops
SET fields = @fields, content = @content, edits = edits + 1, updated_at = @now,
    state = CASE WHEN state = 'failed' THEN 'pending' ELSE state END,
    error = CASE WHEN state = 'failed' THEN NULL ELSE error END,
    attempts = CASE WHEN state = 'failed' THEN 0 ELSE attempts END,
    next_attempt_at = NULL
WHERE seq = @seq;

-- name: requeueOp
-- An operation moved to the end of the queue with all it holds (a fresh seq: AUTOINCREMENT never
-- gives an old one back): a record's queue put back in order behind a change queued before it.
INSERT INTO outbox_ops (portal_id, module_id, record_id, kind, state, fields, comment_id, content,
                        base_content, edits, queued_at, updated_at, attempts, next_attempt_at,
                        sent_body, sent_at, error, conflict, action)
SELECT portal_id, module_id, record_id, kind, state, fields, comment_id, content, base_content,
       edits, queued_at, updated_at, attempts, next_attempt_at, sent_body, sent_at, error,
       conflict, action
FROM outbox_ops WHERE seq = ?
RETURNING seq;

-- name: deleteOp
DELETE FROM outbox_ops WHERE seq = ?;

-- name: op
SELECT * FROM outbox_ops WHERE seq = ?;

-- name: opsOfRecord
SELECT * FROM outbox_ops WHERE portal_id = ? AND record_id = ? ORDER BY seq;

-- name: recordsHeldBy
-- When a change of a module's fields or options (@holding, as readyHeads) holds its record
-- changes: the first operation of its configuration queue that does (only a queue's head goes,
-- so one failed or in conflict before it holds them as well, and is the one to act on).
SELECT * FROM outbox_ops
WHERE portal_id = @portalId AND record_id = 'layouts:' || @moduleId
  AND (action IN (SELECT value FROM json_each(@holding)) OR state IN ('failed', 'conflict'))
  AND EXISTS (SELECT 1 FROM outbox_ops h
              WHERE h.portal_id = @portalId AND h.record_id = 'layouts:' || @moduleId
                AND h.action IN (SELECT value FROM json_each(@holding)))
ORDER BY seq
LIMIT 1;

-- name: allOps
SELECT * FROM outbox_ops ORDER BY seq;

-- name: recordOpsOfModule
-- Changes of a module's records still queued (not of its configuration): the portal's operations
-- read through outbox_ops_record's portal_id (tens of thousands after a bulk edit, milliseconds),
-- asked only when the module is about to go to the bin.
SELECT count(*) FROM outbox_ops WHERE portal_id = ? AND module_id = ? AND kind <> 'config';

-- name: valueOpsOfModule
-- A module's queued creates and updates (the changes that carry values), in queue order: what an
-- option renamed or removed, or a field deleted, in its configuration queue is checked against.
SELECT * FROM outbox_ops
WHERE portal_id = ? AND module_id = ? AND kind IN ('create', 'update')
ORDER BY seq;

-- name: opsOfPortal
SELECT * FROM outbox_ops WHERE portal_id = ? ORDER BY seq;

-- name: oldestOpsPerState
-- The first @perState operations of each state, in queue order, of one record (@portalId and
-- @recordId), one portal (@recordId null) or all (both null): what the Outbox view lists. Cut here, only those rows are read and parsed
-- (a bulk edit queues 10,000).
SELECT * FROM outbox_ops WHERE seq IN (
  SELECT seq FROM (
    SELECT seq, row_number() OVER (PARTITION BY state ORDER BY seq) AS n FROM outbox_ops
    WHERE (@portalId IS NULL OR portal_id = @portalId)
      AND (@recordId IS NULL OR record_id = @recordId))
  WHERE n <= @perState)
ORDER BY seq;

-- name: readyHeads
-- The first operation of a record's queue is its head: only heads may go out (order per record).
-- Heads that may go now (not failed, in conflict or waiting out a backoff), keys only, leaving out
-- those in flight (@running: a JSON array of seqs), at most @limit (-1: all): those whose backoff
-- ended first (earliest end first), then the others oldest first. The replay asks after every
-- finished record, so each part reads only the rows it returns (and queue followers it skips)
-- from outbox_ops_due (0020): a part in seq order over the backoffs that ended would sort them
-- all at every look, and after a sign-in those are every queued head.
-- A module's record heads wait while a change of its fields or options (@holding: a JSON array
-- of actions, src/main/outbox/recordsWaitFor.ts) is in its configuration queue (`layouts:<module
-- id>`, found through outbox_ops_record), whatever its state: configuration goes first. Such a
-- change waits in turn while a record of its module is being sent (its body may have left with
-- the old name; found through the index of states). A claimed operation (a crash's) waits for
-- nothing, or the two would wait for each other.
-- An operation an import still being queued wrote or folded into (import_run_rows, 0032) waits
-- until its last row is queued: an import goes whole or not at all (src/main/recordsImport/).
SELECT seq, portalId, recordId FROM (
  SELECT * FROM (
    SELECT o.seq, o.portal_id AS portalId, o.record_id AS recordId, o.next_attempt_at AS dueAt
    FROM outbox_ops o
    WHERE o.state = 'pending' AND o.next_attempt_at <= @now
      AND o.seq NOT IN (SELECT value FROM json_each(@running))
      AND NOT EXISTS (SELECT 1 FROM outbox_ops p
                      WHERE p.portal_id = o.portal_id AND p.record_id = o.record_id AND p.seq < o.seq)
      AND NOT EXISTS (SELECT 1 FROM import_run_rows h WHERE h.op_seq = o.seq)
      AND (o.kind = 'config' OR NOT EXISTS (SELECT 1 FROM outbox_ops c
                      WHERE c.portal_id = o.portal_id AND c.record_id = 'layouts:' || o.module_id
                        AND c.action IN (SELECT value FROM json_each(@holding))))
      AND (o.kind <> 'config' OR coalesce(o.action, '') NOT IN (SELECT value FROM json_each(@holding))
           OR NOT EXISTS (SELECT 1 FROM outbox_ops r
                          WHERE r.state = 'sending' AND r.portal_id = o.portal_id
                            AND r.module_id = o.module_id AND r.kind <> 'config'))
    ORDER BY o.next_attempt_at, o.seq
    LIMIT @limit)
  UNION ALL
  SELECT * FROM (
    SELECT o.seq, o.portal_id AS portalId, o.record_id AS recordId, NULL AS dueAt
    FROM outbox_ops o
    WHERE o.state = 'pending' AND o.next_attempt_at IS NULL
      AND o.seq NOT IN (SELECT value FROM json_each(@running))
      AND NOT EXISTS (SELECT 1 FROM outbox_ops p
                      WHERE p.portal_id = o.portal_id AND p.record_id = o.record_id AND p.seq < o.seq)
      AND NOT EXISTS (SELECT 1 FROM import_run_rows h WHERE h.op_seq = o.seq)
      AND (o.kind = 'config' OR NOT EXISTS (SELECT 1 FROM outbox_ops c
                      WHERE c.portal_id = o.portal_id AND c.record_id = 'layouts:' || o.module_id
                        AND c.action IN (SELECT value FROM json_each(@holding))))
      AND (o.kind <> 'config' OR coalesce(o.action, '') NOT IN (SELECT value FROM json_each(@holding))
           OR NOT EXISTS (SELECT 1 FROM outbox_ops r
                          WHERE r.state = 'sending' AND r.portal_id = o.portal_id
                            AND r.module_id = o.module_id AND r.kind <> 'config'))
    ORDER BY o.seq
    LIMIT @limit)
  UNION ALL
  -- Claimed and not in flight: left by a crash or a close, it goes again (few: at most one per
  -- record replayed at once).
  SELECT * FROM (
    SELECT o.seq, o.portal_id AS portalId, o.record_id AS recordId, NULL AS dueAt
    FROM outbox_ops o
    WHERE o.state = 'sending' AND (o.next_attempt_at IS NULL OR o.next_attempt_at <= @now)
      AND o.seq NOT IN (SELECT value FROM json_each(@running))
      AND NOT EXISTS (SELECT 1 FROM outbox_ops p
                      WHERE p.portal_id = o.portal_id AND p.record_id = o.record_id AND p.seq < o.seq)
    ORDER BY o.seq
    LIMIT @limit)
)
ORDER BY dueAt IS NULL, dueAt, seq
LIMIT @limit;

-- name: nextAttemptAt
-- When the earliest head waiting out a backoff may go: the first head in outbox_ops_due's order.
SELECT o.next_attempt_at FROM outbox_ops o
WHERE o.state = 'pending' AND o.next_attempt_at > @now
  AND NOT EXISTS (SELECT 1 FROM outbox_ops p
                  WHERE p.portal_id = o.portal_id AND p.record_id = o.record_id AND p.seq < o.seq)
ORDER BY o.next_attempt_at
LIMIT 1;

-- name: counts
SELECT state, count(*) AS n FROM outbox_ops GROUP BY state;

-- name: claim
-- The replay takes an operation: from now on no edit is folded into it (a new one is queued).
UPDATE outbox_ops SET state = 'sending', updated_at = @now WHERE seq = @seq AND state IN ('pending', 'sending');

-- name: markSending
-- In the same transaction as nothing else: once this commits, the request may leave.
UPDATE outbox_ops
SET state = 'sending', sent_body = @sentBody, sent_at = @now, attempts = attempts + 1,
    updated_at = @now
WHERE seq = @seq;

-- name: markWaiting
-- A transient failure: back to pending, tried again after `next_attempt_at`; `sent_body` stays
-- when the request may have reached the service, so the next try checks before resending.
UPDATE outbox_ops
SET state = 'pending', next_attempt_at = @nextAttemptAt, error = @error, updated_at = @now,
    sent_body = CASE WHEN @keepSent = 1 THEN sent_body ELSE NULL END,
    attempts = CASE WHEN @countAttempt = 1 THEN attempts + 1 ELSE attempts END
WHERE seq = @seq;

-- name: markFailed
-- Refused: what was sent is forgotten unless the service made it anyway (a 2xx it answered with a
-- reply that could not be read), so that a retry looks for it before sending again.
UPDATE outbox_ops
SET state = 'failed', error = @error, next_attempt_at = NULL, updated_at = @now,
    sent_body = CASE WHEN @keepSent = 1 THEN sent_body ELSE NULL END
WHERE seq = @seq;

-- name: markConflict
UPDATE outbox_ops
SET state = 'conflict', fields = @fields, conflict = @conflict, sent_body = NULL,
    next_attempt_at = NULL, error = NULL, updated_at = @now
WHERE seq = @seq;

-- name: setFields
-- What is left of an operation after part of it went out or was resolved.
UPDATE outbox_ops
SET fields = @fields, state = @state, conflict = @conflict, sent_body = NULL, error = NULL,
    next_attempt_at = NULL, updated_at = @now
WHERE seq = @seq;

-- name: setComment
UPDATE outbox_ops SET content = @content, base_content = @baseContent, updated_at = @now,
  state = @state, conflict = @conflict, sent_body = NULL, error = NULL, next_attempt_at = NULL
WHERE seq = @seq;

-- name: retryOp
UPDATE outbox_ops
SET state = 'pending', error = NULL, next_attempt_at = NULL, updated_at = @now
WHERE seq = @seq AND state IN ('failed', 'pending');

-- name: retryWaiting
UPDATE outbox_ops SET next_attempt_at = NULL WHERE state = 'pending' AND next_attempt_at IS NOT NULL;

-- name: remapRecordOps
UPDATE outbox_ops SET record_id = @to WHERE portal_id = @portalId AND record_id = @from;

-- name: configOpsOfPortal
SELECT * FROM outbox_ops WHERE portal_id = ? AND kind = 'config' ORDER BY seq;

-- name: remapConfigQueue
-- A module created here got its server id: every config op of it (its own queue and its
-- layouts') follows, queue names included (they end with the module's id).
-- Those waiting for it (a layout of it) may go at once.
UPDATE outbox_ops SET module_id = @toModuleId, record_id = replace(record_id, @from, @toModuleId),
  next_attempt_at = NULL,
  error = CASE WHEN state = 'pending' THEN NULL ELSE error END
WHERE portal_id = @portalId AND kind = 'config' AND module_id = @from;

-- name: rewriteTempId
-- A layout or section created here got its server id: later operations naming the temporary id
-- (as a JSON string in their fields) name the server's instead. Temporary ids are random, so the
-- quoted text occurs nowhere else.
UPDATE outbox_ops SET fields = replace(fields, @quotedFrom, @quotedTo)
WHERE portal_id = @portalId AND kind = 'config' AND instr(fields, @quotedFrom) > 0;

-- name: remapCommentOps
UPDATE outbox_ops SET comment_id = @to WHERE portal_id = @portalId AND comment_id = @from;

-- name: insertRemap
INSERT INTO outbox_remaps (portal_id, kind, temp_id, server_id, remapped_at)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (portal_id, kind, temp_id) DO UPDATE SET server_id = excluded.server_id;

-- name: adoptedIds
SELECT server_id FROM outbox_remaps WHERE portal_id = ? AND kind = ?;

-- name: remapOf
SELECT server_id FROM outbox_remaps WHERE portal_id = ? AND kind = ? AND temp_id = ?;

-- name: learnAuthor
-- The portal's creator of our creates as the service just answered one (0026_outbox_authors.sql).
INSERT INTO outbox_authors (portal_id, zpuid, learnt_at) VALUES (?, ?, ?)
ON CONFLICT (portal_id) DO UPDATE SET zpuid = excluded.zpuid, learnt_at = excluded.learnt_at;

-- name: authorOf
SELECT zpuid FROM outbox_authors WHERE portal_id = ?;

-- Metadata the rules need (the mirror's tables).

-- name: portal
SELECT id, account_id AS accountId, timezone AS timeZone FROM portals WHERE id = ?;

-- name: module
SELECT module_key AS moduleKey, id, api_name AS apiName, plural_name AS pluralName,
       singular_name AS singularName
FROM modules WHERE portal_id = ? AND id = ?;

-- name: fields
SELECT id, api_name AS apiName, display_name AS displayName, field_type AS fieldType,
       is_default AS isDefault, is_mandatory AS isMandatory, field_property AS fieldProperty
FROM fields WHERE portal_id = ? AND module_id = ? ORDER BY api_name;

-- name: layoutFieldIds
SELECT field_id FROM layout_fields WHERE portal_id = ? AND layout_id = ?;

-- name: defaultLayout
SELECT id FROM layouts WHERE portal_id = ? AND module_id = ?
ORDER BY is_default DESC, id LIMIT 1;

-- name: options
SELECT o.field_id AS fieldId, o.kind, o.value_id AS valueId, o.value, o.layout_id AS layoutId
FROM field_options o JOIN fields f ON f.portal_id = o.portal_id AND f.id = o.field_id
WHERE f.portal_id = ? AND f.module_id = ?
ORDER BY o.field_id, o.position, o.value_id;

-- name: statuses
SELECT id, name, color, is_closed_type AS isClosedType, is_default AS isDefault
FROM statuses WHERE portal_id = ? AND module_id = ? ORDER BY position, id;

-- name: transitions
SELECT t.from_status_id AS fromId, t.to_status_id AS toId
FROM status_transitions t JOIN statuses s ON s.portal_id = t.portal_id AND s.id = t.from_status_id
WHERE s.portal_id = ? AND s.module_id = ?;

-- name: users
SELECT zpuid, name, email FROM portal_users WHERE portal_id = ? ORDER BY name, zpuid;
