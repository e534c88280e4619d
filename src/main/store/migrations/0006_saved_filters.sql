-- The records workspace's own state (src/main/records/): filters saved by name per module, and the
-- records a person opened recently. Both are local to this data directory, never sent anywhere.
-- They go with their portal, module or record: a module or record deleted from the mirror takes
-- its saved filters or its place in the recent list with it.

CREATE TABLE saved_filters (
  id         INTEGER PRIMARY KEY,
  portal_id  TEXT NOT NULL,
  module_id  TEXT NOT NULL,
  name       TEXT NOT NULL,
  filter     TEXT NOT NULL CHECK (json_valid(filter)),  -- the API's `filter` value, as JSON text
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (portal_id, module_id, name),
  FOREIGN KEY (portal_id, module_id) REFERENCES modules (portal_id, id) ON DELETE CASCADE
) STRICT;

CREATE TABLE recent_records (
  portal_id TEXT NOT NULL,
  record_id TEXT NOT NULL,
  viewed_at TEXT NOT NULL,
  PRIMARY KEY (portal_id, record_id),
  -- ON UPDATE: the outbox renames a record created offline to the server's id once replayed.
  FOREIGN KEY (portal_id, record_id) REFERENCES records (portal_id, id)
    ON DELETE CASCADE ON UPDATE CASCADE
) STRICT;
CREATE INDEX recent_records_by_time ON recent_records (portal_id, viewed_at);
