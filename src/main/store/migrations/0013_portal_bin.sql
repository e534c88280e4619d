-- A portal's recycle bin as last read from the service (issue 16): shown offline, and what a
-- queued restore or delete names is checked against it. Replaced whole on every read.
-- src/main/configure/portalBinRepository.ts is its only writer.
CREATE TABLE portal_bin_items (
  portal_id TEXT NOT NULL,
  id        TEXT NOT NULL,
  module    TEXT NOT NULL,
  name      TEXT NOT NULL,
  -- The item as the service listed it (project, trashed time and by whom, restorable until).
  item      TEXT NOT NULL CHECK (json_valid(item)),
  PRIMARY KEY (portal_id, module, id)
) STRICT;

CREATE TABLE portal_bin_reads (
  portal_id TEXT PRIMARY KEY,
  read_at   TEXT NOT NULL
) STRICT;
