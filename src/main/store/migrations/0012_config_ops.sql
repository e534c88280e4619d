-- Configuration changes in the outbox (issue 16): one queue, the same replay. Also a record's
-- permanent delete from the recycle bin (kind 'delete'). A module's change is
-- an operation of kind 'config' whose `action` says what (`module.create`, `module.update`, ...);
-- its queue is `record_id` = `module:<module id>` (a temporary `tmp-m-…` id until created), its
-- `fields` hold the settings it changes as {api body key: {value, base}}, as a record's do.
-- SQLite cannot change a CHECK in place: both tables are rebuilt with their rows.

CREATE TABLE outbox_ops_new (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  portal_id       TEXT NOT NULL,
  module_id       TEXT NOT NULL,
  record_id       TEXT NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN (
                    'create', 'update', 'trash', 'restore',
                    'comment_add', 'comment_edit', 'comment_delete', 'config', 'delete')),
  state           TEXT NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'sending', 'failed', 'conflict')),
  fields          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(fields)),
  comment_id      TEXT,
  content         TEXT,
  base_content    TEXT,
  edits           INTEGER NOT NULL DEFAULT 1,
  queued_at       TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  sent_body       TEXT,
  sent_at         TEXT,
  error           TEXT,
  conflict        TEXT CHECK (conflict IS NULL OR json_valid(conflict)),
  -- Config operations only: what they do (module.create, module.update, module.activate, ...).
  action          TEXT CHECK ((kind = 'config') = (action IS NOT NULL))
) STRICT;
INSERT INTO outbox_ops_new (seq, portal_id, module_id, record_id, kind, state, fields, comment_id,
  content, base_content, edits, queued_at, updated_at, attempts, next_attempt_at, sent_body,
  sent_at, error, conflict)
SELECT seq, portal_id, module_id, record_id, kind, state, fields, comment_id, content,
  base_content, edits, queued_at, updated_at, attempts, next_attempt_at, sent_body, sent_at, error,
  conflict
FROM outbox_ops;
-- AUTOINCREMENT's counter goes with the rows: a deleted operation's number is never given again
-- (the Outbox names operations by it; a stale id must not reach a newer operation).
UPDATE sqlite_sequence
SET seq = max(seq, (SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'outbox_ops'))
WHERE name = 'outbox_ops_new';
INSERT INTO sqlite_sequence (name, seq)
SELECT 'outbox_ops_new', seq FROM sqlite_sequence
WHERE name = 'outbox_ops'
  AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'outbox_ops_new');
DROP TABLE outbox_ops;
ALTER TABLE outbox_ops_new RENAME TO outbox_ops;
CREATE INDEX outbox_ops_record ON outbox_ops (portal_id, record_id, seq);
CREATE INDEX outbox_ops_state ON outbox_ops (state, seq);

CREATE TABLE outbox_remaps_new (
  portal_id   TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('record', 'comment', 'module')),
  temp_id     TEXT NOT NULL,
  server_id   TEXT NOT NULL,
  remapped_at TEXT NOT NULL,
  PRIMARY KEY (portal_id, kind, temp_id)
) STRICT;
INSERT INTO outbox_remaps_new SELECT portal_id, kind, temp_id, server_id, remapped_at
FROM outbox_remaps;
DROP TABLE outbox_remaps;
ALTER TABLE outbox_remaps_new RENAME TO outbox_remaps;
CREATE INDEX outbox_remaps_server ON outbox_remaps (portal_id, kind, server_id);

-- The module bin as this computer knows it: modules trashed from here (the service lists no
-- module bin; a trashed module leaves its module list, and with it the mirror). Kept until
-- recovered or deleted for good, so both can be done from here. src/main/configure/.
CREATE TABLE module_bin (
  portal_id     TEXT NOT NULL,
  module_id     TEXT NOT NULL,
  api_name      TEXT NOT NULL,
  singular_name TEXT NOT NULL,
  plural_name   TEXT NOT NULL,
  -- The module as the service last showed it (its settings, as the mirror kept them).
  details       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
  -- Its records mirrored when it was trashed (they went with it; the service keeps them).
  records       INTEGER NOT NULL DEFAULT 0,
  trashed_time  TEXT NOT NULL,
  PRIMARY KEY (portal_id, module_id)
) STRICT;
