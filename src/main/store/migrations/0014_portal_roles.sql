-- The roles a portal's user fields may be limited to (issue 16: "roles ... of a field"), as the
-- service names them when a user field's options are read (`available_roles`; the spec shows a
-- role only as `{id}`). Kept so the Configure view offers them offline; replaced whole by every
-- read that carries them. src/main/store/mirror/metadataRepository.ts is its only writer.
CREATE TABLE portal_roles (
  portal_id TEXT NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
  id        TEXT NOT NULL,
  name      TEXT,
  position  INTEGER NOT NULL,
  PRIMARY KEY (portal_id, id)
) STRICT;
