-- The outbox (src/main/outbox/): local changes waiting to be replayed to the service, exactly once
-- and in order per record. The overlay the lists show stays in record_edits (0002_mirror); this is
-- the operation log behind it. Ids are TEXT: server ids, or `tmp-…` ids of what was created offline.

CREATE TABLE outbox_ops (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,   -- the order operations go out in
  portal_id       TEXT NOT NULL,
  module_id       TEXT NOT NULL,
  record_id       TEXT NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN (
                    'create', 'update', 'trash', 'restore',
                    'comment_add', 'comment_edit', 'comment_delete')),
  state           TEXT NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'sending', 'failed', 'conflict')),
  -- create/update: {field: {"value": <API shape>, "base": <the server's value it was made on>}};
  -- trash/restore: {"trashed_time": {"value", "base"}} so a discard puts the copy back.
  fields          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(fields)),
  comment_id      TEXT,                                 -- comment ops: server or temporary id
  content         TEXT,                                 -- comment add/edit: the new content
  base_content    TEXT,                                 -- comment edit: the content it was made on
  edits           INTEGER NOT NULL DEFAULT 1,           -- user edits coalesced into it
  queued_at       TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,                              -- epoch ms, after a transient failure
  -- Written in the same transaction that marks the op `sending`, before the request leaves: a
  -- non-NULL sent_body means "the service may have applied this"; it is checked before a resend.
  sent_body       TEXT,
  sent_at         TEXT,
  error           TEXT,
  conflict        TEXT CHECK (conflict IS NULL OR json_valid(conflict))
) STRICT;
CREATE INDEX outbox_ops_record ON outbox_ops (portal_id, record_id, seq);
CREATE INDEX outbox_ops_state ON outbox_ops (state, seq);

-- Temporary ids that became server ids: operations and references follow the record, and a
-- lost create's lookup never adopts a record another operation already owns.
CREATE TABLE outbox_remaps (
  portal_id   TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('record', 'comment')),
  temp_id     TEXT NOT NULL,
  server_id   TEXT NOT NULL,
  remapped_at TEXT NOT NULL,
  PRIMARY KEY (portal_id, kind, temp_id)
) STRICT;
CREATE INDEX outbox_remaps_server ON outbox_remaps (portal_id, kind, server_id);

-- The outbox's own switches (work_offline), kept across restarts.
CREATE TABLE outbox_settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
