-- The emulated service's data. Ids are integers below 2^53 so JavaScript keeps them exact; the
-- API renders them as strings of digits ("long" ids in the spec).

CREATE TABLE users (
  zpuid         TEXT PRIMARY KEY,
  id            INTEGER NOT NULL UNIQUE,
  email         TEXT NOT NULL UNIQUE,
  password      TEXT NOT NULL,
  first_name    TEXT NOT NULL,
  last_name     TEXT NOT NULL,
  dc            TEXT NOT NULL,             -- the data center the user lives in
  role          TEXT NOT NULL DEFAULT 'user',
  status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deactivated', 'deleted')),
  is_team_lead  INTEGER NOT NULL DEFAULT 0,
  reports_to    TEXT REFERENCES users (zpuid)
) STRICT;

CREATE TABLE portals (
  id               INTEGER PRIMARY KEY,
  portal_name      TEXT NOT NULL,
  org_name         TEXT NOT NULL,
  zsoid            TEXT NOT NULL,
  dc               TEXT NOT NULL,
  owner_zpuid      TEXT NOT NULL REFERENCES users (zpuid),
  timezone         TEXT NOT NULL,
  is_default       INTEGER NOT NULL DEFAULT 0,
  profile_id       INTEGER NOT NULL,
  profile_name     TEXT NOT NULL,
  project_plan     TEXT NOT NULL,
  bug_plan         TEXT NOT NULL,
  logo_url         TEXT NOT NULL,
  business_details TEXT NOT NULL CHECK (json_valid(business_details)),
  is_customdomain_enabled INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE portal_users (
  portal_id      INTEGER NOT NULL REFERENCES portals (id),
  zpuid          TEXT NOT NULL REFERENCES users (zpuid),
  invite_status  TEXT NOT NULL DEFAULT 'accepted' CHECK (invite_status IN ('pending', 'accepted')),
  is_client_user INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (portal_id, zpuid)
) STRICT;

-- Records of the built-in trashable modules (projects, phases, tasklists, tasks, issues): only
-- what the trash and recycle-bin operations need.
CREATE TABLE work_items (
  id            INTEGER PRIMARY KEY,
  portal_id     INTEGER NOT NULL REFERENCES portals (id),
  module        TEXT NOT NULL CHECK (module IN ('projects', 'phases', 'tasklists', 'tasks', 'issues')),
  name          TEXT NOT NULL,
  project_id    INTEGER REFERENCES work_items (id),
  created_time  TEXT NOT NULL,
  trashed_time  TEXT,
  trashed_by    TEXT
) STRICT;
CREATE INDEX work_items_portal ON work_items (portal_id, module, trashed_time);

CREATE TABLE modules (
  id                  INTEGER PRIMARY KEY,
  portal_id           INTEGER NOT NULL REFERENCES portals (id),
  api_name            TEXT NOT NULL,
  singular_name       TEXT NOT NULL,
  plural_name         TEXT NOT NULL,
  icon_class          TEXT NOT NULL DEFAULT '',
  is_global_module    INTEGER NOT NULL DEFAULT 0,
  is_all_projects     INTEGER NOT NULL DEFAULT 1,
  is_overview_needed  INTEGER NOT NULL DEFAULT 0,
  is_customized       INTEGER NOT NULL DEFAULT 1,
  is_default          INTEGER NOT NULL DEFAULT 0,
  is_web_tab          INTEGER NOT NULL DEFAULT 0,
  default_layout_type TEXT NOT NULL DEFAULT 'public' CHECK (default_layout_type IN ('public', 'private')),
  projects            TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(projects)),
  state               TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'deactivated')),
  trashed_time        TEXT,
  created_time        TEXT NOT NULL,
  UNIQUE (portal_id, api_name)
) STRICT;

CREATE TABLE layouts (
  id            INTEGER PRIMARY KEY,
  module_id     INTEGER NOT NULL REFERENCES modules (id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  type          TEXT NOT NULL DEFAULT 'public' CHECK (type IN ('public', 'private')),
  reference_id  INTEGER,
  is_default    INTEGER NOT NULL DEFAULT 0,
  created_time  TEXT NOT NULL
) STRICT;

CREATE TABLE sections (
  id         INTEGER PRIMARY KEY,
  layout_id  INTEGER NOT NULL REFERENCES layouts (id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  position   REAL NOT NULL
) STRICT;

CREATE TABLE fields (
  id             INTEGER PRIMARY KEY,
  module_id      INTEGER NOT NULL REFERENCES modules (id) ON DELETE CASCADE,
  api_name       TEXT NOT NULL,
  display_name   TEXT NOT NULL,
  field_type     TEXT NOT NULL,   -- one of the custom field value types, or a system field's type
  data_type      TEXT NOT NULL,
  is_default     INTEGER NOT NULL DEFAULT 0,  -- system fields (name, status, owner, ...)
  is_mandatory   INTEGER NOT NULL DEFAULT 0,
  is_renamed     INTEGER NOT NULL DEFAULT 0,
  is_formula_based_list INTEGER NOT NULL DEFAULT 0,
  field_property TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(field_property)),
  created_time   TEXT NOT NULL,
  UNIQUE (module_id, api_name)
) STRICT;

CREATE TABLE layout_fields (
  layout_id   INTEGER NOT NULL REFERENCES layouts (id) ON DELETE CASCADE,
  field_id    INTEGER NOT NULL REFERENCES fields (id) ON DELETE CASCADE,
  section_id  INTEGER NOT NULL REFERENCES sections (id) ON DELETE CASCADE,
  position    REAL NOT NULL,
  PRIMARY KEY (layout_id, field_id)
) STRICT;

-- Options of pick list and multi-select fields, and the users/roles of user fields.
CREATE TABLE field_options (
  id         INTEGER PRIMARY KEY,
  field_id   INTEGER NOT NULL REFERENCES fields (id) ON DELETE CASCADE,
  layout_id  INTEGER REFERENCES layouts (id) ON DELETE CASCADE,  -- NULL: every layout
  kind       TEXT NOT NULL CHECK (kind IN ('custom_option', 'role', 'user')),
  value      TEXT NOT NULL,   -- display name, role id or zpuid
  position   REAL NOT NULL
) STRICT;
CREATE INDEX field_options_field ON field_options (field_id, kind);

CREATE TABLE statuses (
  id              INTEGER PRIMARY KEY,
  module_id       INTEGER NOT NULL REFERENCES modules (id) ON DELETE CASCADE,
  layout_id       INTEGER REFERENCES layouts (id) ON DELETE CASCADE,
  name            TEXT NOT NULL,
  color           TEXT NOT NULL,
  is_closed_type  INTEGER NOT NULL DEFAULT 0,
  is_default      INTEGER NOT NULL DEFAULT 0,
  position        REAL NOT NULL
) STRICT;

CREATE TABLE status_transitions (
  from_status_id INTEGER NOT NULL REFERENCES statuses (id) ON DELETE CASCADE,
  to_status_id   INTEGER NOT NULL REFERENCES statuses (id) ON DELETE CASCADE,
  PRIMARY KEY (from_status_id, to_status_id)
) STRICT;

CREATE TABLE entities (
  id                INTEGER PRIMARY KEY,
  module_id         INTEGER NOT NULL REFERENCES modules (id) ON DELETE CASCADE,
  project_id        INTEGER REFERENCES work_items (id),
  layout_id         INTEGER NOT NULL REFERENCES layouts (id),
  status_id         INTEGER NOT NULL REFERENCES statuses (id),
  name              TEXT NOT NULL,
  description       TEXT NOT NULL DEFAULT '',
  is_closed         INTEGER NOT NULL DEFAULT 0,
  is_external       INTEGER NOT NULL DEFAULT 0,
  owner_zpuid       TEXT NOT NULL REFERENCES users (zpuid),
  custom            TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(custom)),  -- by field api_name
  created_time      TEXT NOT NULL,
  last_updated_time TEXT NOT NULL,
  trashed_time      TEXT
) STRICT;
CREATE INDEX entities_module ON entities (module_id, trashed_time, id);
CREATE INDEX entities_module_updated ON entities (module_id, last_updated_time);

CREATE TABLE status_timeline (
  id            INTEGER PRIMARY KEY,
  entity_id     INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  from_status_id INTEGER REFERENCES statuses (id),
  to_status_id  INTEGER NOT NULL REFERENCES statuses (id),
  changed_by    TEXT NOT NULL REFERENCES users (zpuid),
  changed_time  TEXT NOT NULL
) STRICT;
CREATE INDEX status_timeline_entity ON status_timeline (entity_id, changed_time);

CREATE TABLE comments (
  id            INTEGER PRIMARY KEY,
  entity_id     INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  content       TEXT NOT NULL,
  attachments   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(attachments)),
  created_by    TEXT NOT NULL REFERENCES users (zpuid),
  created_time  TEXT NOT NULL,
  last_updated_time TEXT NOT NULL
) STRICT;
CREATE INDEX comments_entity ON comments (entity_id, created_time);

CREATE TABLE exports (
  id              INTEGER PRIMARY KEY,
  portal_id       INTEGER NOT NULL REFERENCES portals (id),
  requested_by    TEXT NOT NULL REFERENCES users (zpuid),
  status          TEXT NOT NULL CHECK (status IN ('in_progress', 'completed', 'failed')),
  created_time    TEXT NOT NULL,  -- emulated ISO time
  created_ms      INTEGER NOT NULL,
  ready_ms        INTEGER NOT NULL,
  attachment_needed INTEGER NOT NULL DEFAULT 0,
  access_code     TEXT NOT NULL,   -- kept to encrypt the archive when it is first downloaded
  download_key    TEXT NOT NULL UNIQUE,
  archive         BLOB
) STRICT;

-- OAuth. Client registrations, grant codes, refresh and access tokens.
CREATE TABLE oauth_clients (
  client_id     TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  redirect_uri  TEXT NOT NULL,
  secrets       TEXT NOT NULL CHECK (json_valid(secrets)),  -- {"<dc>": "<secret>"}; one shared secret unless Multi-DC
  multi_dc      INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE oauth_grants (
  code           TEXT PRIMARY KEY,
  client_id      TEXT NOT NULL REFERENCES oauth_clients (client_id),
  zpuid          TEXT NOT NULL REFERENCES users (zpuid),
  dc             TEXT NOT NULL,
  scopes         TEXT NOT NULL,
  redirect_uri   TEXT,
  access_type    TEXT NOT NULL,
  code_challenge TEXT,
  created_ms     INTEGER NOT NULL,
  expires_ms     INTEGER NOT NULL,
  used           INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX oauth_grants_client ON oauth_grants (client_id, created_ms);

CREATE TABLE oauth_refresh_tokens (
  token        TEXT PRIMARY KEY,
  client_id    TEXT NOT NULL REFERENCES oauth_clients (client_id),
  zpuid        TEXT NOT NULL REFERENCES users (zpuid),
  dc           TEXT NOT NULL,
  scopes       TEXT NOT NULL,
  created_ms   INTEGER NOT NULL,
  revoked      INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX oauth_refresh_client ON oauth_refresh_tokens (client_id, created_ms);

CREATE TABLE oauth_access_tokens (
  token          TEXT PRIMARY KEY,
  refresh_token  TEXT REFERENCES oauth_refresh_tokens (token) ON DELETE CASCADE,
  client_id      TEXT NOT NULL REFERENCES oauth_clients (client_id),
  zpuid          TEXT NOT NULL REFERENCES users (zpuid),
  dc             TEXT NOT NULL,
  scopes         TEXT NOT NULL,
  created_ms     INTEGER NOT NULL,
  expires_ms     INTEGER NOT NULL
) STRICT;
CREATE INDEX oauth_access_refresh ON oauth_access_tokens (refresh_token, created_ms);
CREATE INDEX oauth_access_client ON oauth_access_tokens (client_id, created_ms);
