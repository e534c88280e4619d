-- The outbox's history (issue 19): what the replay delivered to the service, one row per delivery,
-- written in the transaction that takes the operation out of the queue (src/main/outbox/, README
-- "History"). Kept 30 days. Record and configuration operations alike: `kind` is the operation's,
-- `action` a configuration operation's (module.create, field.update, ...).

CREATE TABLE outbox_history (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,   -- newest first is id order
  op_seq          INTEGER NOT NULL,                    -- the operation (outbox_ops.seq) it delivered
  portal_id       TEXT NOT NULL,
  module_id       TEXT NOT NULL,
  -- The record's server id (a created record's new one); `module:<id>` for configuration.
  record_id       TEXT NOT NULL,
  -- What the Outbox called it when it went: the record's name, or a configuration change's summary.
  record_name     TEXT,
  module_name     TEXT,
  kind            TEXT NOT NULL,
  action          TEXT,
  -- The fields it changed: [{"field": key, "label": label}].
  fields          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(fields)),
  queued_at       TEXT NOT NULL,
  sent_at         TEXT,                                 -- when the body was written as sent
  answered_at     TEXT NOT NULL,                        -- ISO; the 30 days count from it
  -- The request that delivered it (the last change request of the run; a read when nothing had
  -- to be sent again) and the service's answer. Bodies are bounded: *_length is the whole size.
  method          TEXT,
  path            TEXT,
  request_body    TEXT,
  request_length  INTEGER NOT NULL DEFAULT 0,
  status          INTEGER,
  answer          TEXT,
  answer_length   INTEGER NOT NULL DEFAULT 0,
  requests        INTEGER NOT NULL DEFAULT 0,           -- change requests the run sent
  note            TEXT
) STRICT;
CREATE INDEX outbox_history_answered ON outbox_history (answered_at);
