-- Modules a sync found gone from the service's module list (trashed there by another admin, or
-- deleted for good: the list cannot tell which), by their names as last mirrored. The sync takes
-- such a module out of the mirror with its rows; changes of it queued here stay in the outbox, and
-- say which module went and what to do (src/main/outbox/moduleGone.ts). A module listed again (a
-- later sync, or recovered from here) leaves this table.
CREATE TABLE modules_gone (
  portal_id   TEXT NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
  id          TEXT NOT NULL,
  api_name    TEXT NOT NULL,
  plural_name TEXT NOT NULL,
  PRIMARY KEY (portal_id, id)
) STRICT;
