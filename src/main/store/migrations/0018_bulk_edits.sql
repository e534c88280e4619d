-- Bulk edits (issue 20, src/main/bulkEdit/): one field of many records changed at once, queued as
-- one coalesced update per record in the outbox (outbox_ops, 0008_outbox). What each bulk edit did
-- to each record's queue is kept so that it can be undone while the change is still queued: the
-- operation it wrote or folded into, and the field's entry in that operation before it came.

CREATE TABLE bulk_edits (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  portal_id   TEXT NOT NULL,
  module_id   TEXT NOT NULL,
  field       TEXT NOT NULL,                          -- the field's key (name, cf_...)
  label       TEXT NOT NULL,                          -- the field's label when it was made
  action      TEXT NOT NULL CHECK (action IN ('set', 'clear', 'add', 'remove')),
  value       TEXT CHECK (value IS NULL OR json_valid(value)),  -- what the user gave (API shape)
  created_at  TEXT NOT NULL,
  state       TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'undone'))
) STRICT;

CREATE TABLE bulk_edit_records (
  bulk_edit_id INTEGER NOT NULL REFERENCES bulk_edits (id) ON DELETE CASCADE,
  record_id    TEXT NOT NULL,
  op_seq       INTEGER NOT NULL,                      -- the outbox operation holding the change
  -- 1: the change was folded into an operation queued before it (the user's own edit).
  coalesced    INTEGER NOT NULL CHECK (coalesced IN (0, 1)),
  -- The field's {value, base} in that operation before the bulk edit; NULL: it did not hold it.
  previous     TEXT CHECK (previous IS NULL OR json_valid(previous)),
  -- The field's {value, base} the bulk edit wrote: undo touches the field only while it holds it.
  -- NULL: the bulk value was the field's base, so the field left the queued edit (a revert).
  written      TEXT CHECK (written IS NULL OR json_valid(written)),
  PRIMARY KEY (bulk_edit_id, record_id)
) STRICT;
CREATE INDEX bulk_edit_records_op ON bulk_edit_records (op_seq);
