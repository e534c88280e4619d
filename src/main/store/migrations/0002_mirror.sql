-- The local mirror: server copies of what the REST API returns, written by the sync engine
-- (src/main/store/mirror/). Ids are the API's strings of digits, kept as TEXT so ids beyond 2^53
-- and the outbox's temporary ids for records created offline need no conversion.
--
-- Every table is keyed by portal_id first: one portal's data is found, counted and deleted by its
-- key prefix. Accounts belong to sign-in (a later migration); portals name theirs in a plain
-- account_id column, without a foreign key.

CREATE TABLE portals (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL,
  dc             TEXT NOT NULL,                 -- the data center the portal was reached through
  name           TEXT NOT NULL,
  org_name       TEXT,
  timezone       TEXT NOT NULL,                 -- IANA zone: "today" in filters is a day there
  week_start_day INTEGER,                       -- business_details.week_start_day
  is_default     INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  details        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),  -- the rest, as the API gave it
  mirrored_at    TEXT NOT NULL
) STRICT;

-- People seen in a portal: record owners, comment authors, users of user fields. The API has no
-- user list, so status, invitation, team lead and manager are NULL until something tells them.
CREATE TABLE portal_users (
  portal_id     TEXT NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
  zpuid         TEXT NOT NULL,
  name          TEXT,
  email         TEXT,
  status        TEXT CHECK (status IN ('active', 'deactivated', 'deleted')),
  invite_status TEXT CHECK (invite_status IN ('pending', 'accepted')),
  is_team_lead  INTEGER CHECK (is_team_lead IN (0, 1)),
  reports_to    TEXT,
  PRIMARY KEY (portal_id, zpuid)
) STRICT;

-- module_key is a local integer id: records carry it instead of two text ids, which keeps the
-- record indexes small.
CREATE TABLE modules (
  module_key    INTEGER PRIMARY KEY,
  portal_id     TEXT NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
  id            TEXT NOT NULL,
  api_name      TEXT NOT NULL,
  singular_name TEXT NOT NULL,
  plural_name   TEXT NOT NULL,
  icon_class    TEXT,
  is_active     INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  is_default    INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  details       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
  created_time  TEXT,
  UNIQUE (portal_id, id),
  UNIQUE (portal_id, api_name)
) STRICT;

CREATE TABLE layouts (
  portal_id    TEXT NOT NULL,
  id           TEXT NOT NULL,
  module_id    TEXT NOT NULL,
  name         TEXT NOT NULL,
  type         TEXT NOT NULL DEFAULT 'public',
  is_default   INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  reference_id TEXT,
  created_time TEXT,
  PRIMARY KEY (portal_id, id),
  FOREIGN KEY (portal_id, module_id) REFERENCES modules (portal_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX layouts_module ON layouts (portal_id, module_id);

CREATE TABLE sections (
  portal_id TEXT NOT NULL,
  id        TEXT NOT NULL,
  layout_id TEXT NOT NULL,
  name      TEXT NOT NULL,
  position  INTEGER NOT NULL,
  PRIMARY KEY (portal_id, id),
  FOREIGN KEY (portal_id, layout_id) REFERENCES layouts (portal_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX sections_layout ON sections (portal_id, layout_id);

CREATE TABLE fields (
  portal_id      TEXT NOT NULL,
  id             TEXT NOT NULL,
  module_id      TEXT NOT NULL,
  api_name       TEXT NOT NULL,
  display_name   TEXT NOT NULL,
  field_type     TEXT NOT NULL,                 -- src/shared/domain/customFieldTypes.ts, or a system type
  data_type      TEXT NOT NULL,
  is_default     INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),  -- system field
  is_mandatory   INTEGER NOT NULL DEFAULT 0 CHECK (is_mandatory IN (0, 1)),
  field_property TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(field_property)),
  created_time   TEXT,
  PRIMARY KEY (portal_id, id),
  UNIQUE (portal_id, module_id, api_name),
  FOREIGN KEY (portal_id, module_id) REFERENCES modules (portal_id, id) ON DELETE CASCADE
) STRICT;

-- Where a field sits on a layout.
CREATE TABLE layout_fields (
  portal_id  TEXT NOT NULL,
  layout_id  TEXT NOT NULL,
  field_id   TEXT NOT NULL,
  section_id TEXT NOT NULL,
  position   INTEGER NOT NULL,
  PRIMARY KEY (portal_id, layout_id, field_id),
  FOREIGN KEY (portal_id, layout_id) REFERENCES layouts (portal_id, id) ON DELETE CASCADE,
  FOREIGN KEY (portal_id, field_id) REFERENCES fields (portal_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX layout_fields_field ON layout_fields (portal_id, field_id);

-- Options of pick lists and multi-selects (kind custom_option: value_id = option id, value = its
-- display name), and whom user fields may pick (user: zpuid and name; role: role id and name).
CREATE TABLE field_options (
  portal_id TEXT NOT NULL,
  field_id  TEXT NOT NULL,
  kind      TEXT NOT NULL CHECK (kind IN ('custom_option', 'user', 'role')),
  value_id  TEXT NOT NULL,
  value     TEXT,
  layout_id TEXT,                               -- NULL: in every layout
  position  INTEGER NOT NULL,
  PRIMARY KEY (portal_id, field_id, kind, value_id),
  FOREIGN KEY (portal_id, field_id) REFERENCES fields (portal_id, id) ON DELETE CASCADE
) STRICT;

CREATE TABLE statuses (
  portal_id      TEXT NOT NULL,
  id             TEXT NOT NULL,
  module_id      TEXT NOT NULL,
  name           TEXT NOT NULL,
  color          TEXT,
  is_closed_type INTEGER NOT NULL DEFAULT 0 CHECK (is_closed_type IN (0, 1)),
  is_default     INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  position       INTEGER NOT NULL,
  PRIMARY KEY (portal_id, id),
  FOREIGN KEY (portal_id, module_id) REFERENCES modules (portal_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX statuses_module ON statuses (portal_id, module_id, position);

CREATE TABLE status_transitions (
  portal_id      TEXT NOT NULL,
  from_status_id TEXT NOT NULL,
  to_status_id   TEXT NOT NULL,
  PRIMARY KEY (portal_id, from_status_id, to_status_id),
  FOREIGN KEY (portal_id, from_status_id) REFERENCES statuses (portal_id, id) ON DELETE CASCADE
) STRICT;

-- Records of custom modules: the server copy, never a local edit (those live in record_edits).
-- The fixed fields are typed columns; custom fields are `custom`, a JSON object by api_name in the
-- shapes the API shows them (multi-select as option names, users as {zpuid, name}, currency as
-- {currency_code, formatted_amount, amount}); only the repository writes it, from JSON.stringify,
-- so it carries no json_valid CHECK (parsing 1 kB per row costs a tenth of the upsert rate).
-- `local_only` rows are records created offline under a temporary id: the outbox writes them and
-- a pull never matches or deletes them.
CREATE TABLE records (
  -- Stable and never reused (AUTOINCREMENT): the full-text index refers to it, and rows above its
  -- "indexed through" mark are the ones not indexed yet.
  row_key           INTEGER PRIMARY KEY AUTOINCREMENT,
  portal_id         TEXT NOT NULL,
  module_key        INTEGER NOT NULL REFERENCES modules (module_key) ON DELETE CASCADE,
  id                TEXT NOT NULL,
  name              TEXT NOT NULL,
  name_fold         TEXT NOT NULL,              -- foldText(name): `contains` and sorting need no SQL function
  description       TEXT NOT NULL DEFAULT '',
  status_id         TEXT,
  layout_id         TEXT,
  project_id        TEXT,
  project_name      TEXT,
  owner_zpuid       TEXT,
  is_closed         INTEGER NOT NULL DEFAULT 0 CHECK (is_closed IN (0, 1)),
  is_external       INTEGER NOT NULL DEFAULT 0 CHECK (is_external IN (0, 1)),
  created_time      TEXT NOT NULL,
  last_updated_time TEXT NOT NULL,
  trashed_time      TEXT,
  custom            TEXT NOT NULL DEFAULT '{}',
  local_only        INTEGER NOT NULL DEFAULT 0 CHECK (local_only IN (0, 1)),
  edited            INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),  -- has record_edits rows (kept by triggers)
  -- How lists read the row: 0 as stored, 1 merged with its local edits, 2 not at all (trashed).
  -- It leads every list index, so the unedited rows of a module are one index range, in order.
  -- A plain column, not a generated one: SQLite never treats an index holding a generated column
  -- as covering, and `contains` on a million names then reads every row. The CHECK keeps every
  -- writer honest; the repository and the record_edits triggers set it.
  list_state        INTEGER NOT NULL DEFAULT 0 CHECK (
    list_state = CASE WHEN trashed_time IS NOT NULL THEN 2 WHEN edited = 1 THEN 1 ELSE 0 END
  ),
  UNIQUE (portal_id, id)
) STRICT;
-- The orders and filters lists use, each ending with id so ties and windows are stable. Each index
-- costs about a tenth of the upsert rate: owner and created_time filters scan instead.
CREATE INDEX records_by_id ON records (module_key, list_state, id);
CREATE INDEX records_by_name ON records (module_key, list_state, name_fold, id);
CREATE INDEX records_by_updated ON records (module_key, list_state, last_updated_time, id);
CREATE INDEX records_by_status ON records (module_key, list_state, status_id, id);
-- Few rows: the server's count is compared with the stored rows minus these.
CREATE INDEX records_local_only ON records (module_key) WHERE local_only = 1;

-- The outbox's overlay: one row per edited field of a record, apart from the server copy, so a
-- pull never overwrites a pending edit. `value` is the new value and `base_value` the server's value
-- the edit was made on (for conflicts), both JSON in the shapes the API shows; `field` is an API
-- body key (name, description, status, layout, project, is_external) or a custom api_name. No
-- foreign key: an edit outlives the deletion of its server copy, so the outbox can report it.
CREATE TABLE record_edits (
  portal_id  TEXT NOT NULL,
  record_id  TEXT NOT NULL,
  field      TEXT NOT NULL,
  value      TEXT NOT NULL CHECK (json_valid(value)),
  base_value TEXT CHECK (base_value IS NULL OR json_valid(base_value)),
  edited_at  TEXT NOT NULL,
  PRIMARY KEY (portal_id, record_id, field)
) STRICT;

CREATE TRIGGER record_edits_mark AFTER INSERT ON record_edits BEGIN
  UPDATE records SET edited = 1, list_state = CASE WHEN trashed_time IS NULL THEN 1 ELSE 2 END
  WHERE portal_id = new.portal_id AND id = new.record_id AND edited = 0;
END;

CREATE TRIGGER record_edits_unmark AFTER DELETE ON record_edits
WHEN NOT EXISTS (
  SELECT 1 FROM record_edits WHERE portal_id = old.portal_id AND record_id = old.record_id
) BEGIN
  UPDATE records SET edited = 0, list_state = CASE WHEN trashed_time IS NULL THEN 0 ELSE 2 END
  WHERE portal_id = old.portal_id AND id = old.record_id;
END;

-- The outbox renames a temporary id to the server's once a create is replayed.
CREATE TRIGGER record_edits_move AFTER UPDATE OF portal_id, record_id ON record_edits BEGIN
  UPDATE records SET edited = 1, list_state = CASE WHEN trashed_time IS NULL THEN 1 ELSE 2 END
  WHERE portal_id = new.portal_id AND id = new.record_id AND edited = 0;
  UPDATE records SET edited = 0, list_state = CASE WHEN trashed_time IS NULL THEN 0 ELSE 2 END
  WHERE portal_id = old.portal_id AND id = old.record_id
    AND NOT EXISTS (
      SELECT 1 FROM record_edits WHERE portal_id = old.portal_id AND record_id = old.record_id
    );
END;

CREATE TABLE comments (
  row_key           INTEGER PRIMARY KEY AUTOINCREMENT,  -- as records.row_key
  portal_id         TEXT NOT NULL,
  record_id         TEXT NOT NULL,
  id                TEXT NOT NULL,
  content           TEXT NOT NULL,
  attachments       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(attachments)),  -- attachment ids
  created_by        TEXT,                       -- zpuid
  created_time      TEXT NOT NULL,
  last_updated_time TEXT NOT NULL,
  UNIQUE (portal_id, id),
  FOREIGN KEY (portal_id, record_id) REFERENCES records (portal_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX comments_record ON comments (portal_id, record_id, created_time);

-- Comments cost one request per record: which records' comments are mirrored, and as of which
-- version of the record (a record changed since then is due again).
CREATE TABLE comment_sync (
  portal_id         TEXT NOT NULL,
  record_id         TEXT NOT NULL,
  synced_at         TEXT NOT NULL,
  record_updated_at TEXT NOT NULL,              -- the record's last_updated_time when they were read
  comment_count     INTEGER NOT NULL,
  PRIMARY KEY (portal_id, record_id),
  FOREIGN KEY (portal_id, record_id) REFERENCES records (portal_id, id) ON DELETE CASCADE
) STRICT;

CREATE TABLE status_timeline (
  portal_id      TEXT NOT NULL,
  record_id      TEXT NOT NULL,
  id             TEXT NOT NULL,
  from_status_id TEXT,
  to_status_id   TEXT,
  changed_by     TEXT,                          -- zpuid
  changed_time   TEXT NOT NULL,
  PRIMARY KEY (portal_id, id),
  FOREIGN KEY (portal_id, record_id) REFERENCES records (portal_id, id) ON DELETE CASCADE
) STRICT;
CREATE INDEX status_timeline_record ON status_timeline (portal_id, record_id, changed_time);

-- Where the pull of a portal's module stands. high_water: the highest last_updated_time fully
-- upserted (the incremental pull asks from its day on); next_page: the page a full pull resumes
-- from after a crash or a kill (NULL when none is running); last_reconciled_at: the last full
-- comparison of ids that removed records deleted on the server.
CREATE TABLE sync_cursors (
  portal_id          TEXT NOT NULL,
  module_id          TEXT NOT NULL,
  high_water         TEXT,
  next_page          INTEGER CHECK (next_page IS NULL OR next_page >= 1),
  full_started_at    TEXT,
  full_completed_at  TEXT,
  last_reconciled_at TEXT,
  updated_at         TEXT NOT NULL,
  PRIMARY KEY (portal_id, module_id),
  FOREIGN KEY (portal_id, module_id) REFERENCES modules (portal_id, id) ON DELETE CASCADE
) STRICT;

-- Full-text search over record names and descriptions and comment contents. External content:
-- the text is stored once, in records and comments. The portal id is indexed too, so a search
-- keeps to one portal inside FTS5 (`portal_id : "…" AND …`).
--
-- New rows are indexed in bulk, by row_key above `fts_progress.indexed_through`, not by an insert
-- trigger: a trigger costs every upsert a statement journal, and an FTS5 table written early in a
-- transaction flushes its pending terms at every later statement; together they halved the upsert
-- rate. Updates and deletions of rows already indexed are queued by triggers with the text the
-- index holds (needed to remove it; ON CONFLICT DO NOTHING keeps the first). Flushing
-- (src/main/store/mirror/fullTextIndex.ts) applies the queue and indexes the new rows; the
-- repositories flush at the end of each write and search flushes before it reads, so whoever
-- writes the tables, a search never misses a row.
CREATE TABLE fts_progress (
  name            TEXT PRIMARY KEY,
  indexed_through INTEGER NOT NULL
) STRICT;
INSERT INTO fts_progress (name, indexed_through) VALUES ('records', 0), ('comments', 0);

CREATE VIRTUAL TABLE records_fts USING fts5 (
  name, description, portal_id, content = 'records', content_rowid = 'row_key',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TABLE records_fts_queue (
  row_key         INTEGER PRIMARY KEY,
  old_name        TEXT NOT NULL,
  old_description TEXT NOT NULL,
  old_portal_id   TEXT NOT NULL
) STRICT;

CREATE TRIGGER records_fts_update AFTER UPDATE OF name, description ON records
WHEN (old.name IS NOT new.name OR old.description IS NOT new.description)
  AND old.row_key <= (SELECT indexed_through FROM fts_progress WHERE name = 'records')
BEGIN
  INSERT INTO records_fts_queue (row_key, old_name, old_description, old_portal_id)
  VALUES (old.row_key, old.name, old.description, old.portal_id)
  ON CONFLICT (row_key) DO NOTHING;
END;

CREATE TRIGGER records_fts_delete AFTER DELETE ON records
WHEN old.row_key <= (SELECT indexed_through FROM fts_progress WHERE name = 'records')
BEGIN
  INSERT INTO records_fts_queue (row_key, old_name, old_description, old_portal_id)
  VALUES (old.row_key, old.name, old.description, old.portal_id)
  ON CONFLICT (row_key) DO NOTHING;
END;

CREATE VIRTUAL TABLE comments_fts USING fts5 (
  content, portal_id, content = 'comments', content_rowid = 'row_key',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TABLE comments_fts_queue (
  row_key       INTEGER PRIMARY KEY,
  old_content   TEXT NOT NULL,
  old_portal_id TEXT NOT NULL
) STRICT;

CREATE TRIGGER comments_fts_update AFTER UPDATE OF content ON comments
WHEN old.content IS NOT new.content
  AND old.row_key <= (SELECT indexed_through FROM fts_progress WHERE name = 'comments')
BEGIN
  INSERT INTO comments_fts_queue (row_key, old_content, old_portal_id)
  VALUES (old.row_key, old.content, old.portal_id)
  ON CONFLICT (row_key) DO NOTHING;
END;

CREATE TRIGGER comments_fts_delete AFTER DELETE ON comments
WHEN old.row_key <= (SELECT indexed_through FROM fts_progress WHERE name = 'comments')
BEGIN
  INSERT INTO comments_fts_queue (row_key, old_content, old_portal_id)
  VALUES (old.row_key, old.content, old.portal_id)
  ON CONFLICT (row_key) DO NOTHING;
END;
