-- The event-router sandbox (spec 000, issue 8): publishers, their events and schema versions,
-- rules, targets, received events with their executions and attempts, request bins and capture
-- URLs. Ids are the spec's long numeric strings, kept as TEXT so no digit is ever rounded.

-- The account every payload names (`account{org_id, project{...}}`), one JSON value per key.
CREATE TABLE router_settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL CHECK (json_valid(value))
) STRICT;

CREATE TABLE router_publishers (
  id           TEXT    PRIMARY KEY,
  name         TEXT    NOT NULL,
  kind         TEXT    NOT NULL CHECK (kind IN ('suite', 'platform', 'custom')),
  -- The service name in each event's `source` ("publisher/service/account").
  service      TEXT    NOT NULL,
  status       TEXT    NOT NULL CHECK (status IN ('active', 'inactive')),
  -- SHA-256 of the API key (custom publishers): the key itself is shown once and never stored.
  api_key_hash TEXT,
  api_key_hint TEXT,
  -- Default publishers are found again by this key (`platform:authentication`, `suite:<portal>`).
  system_key   TEXT    UNIQUE,
  created_at   INTEGER NOT NULL
) STRICT;

CREATE TABLE router_event_configs (
  id           TEXT    PRIMARY KEY,
  publisher_id TEXT    NOT NULL REFERENCES router_publishers (id),
  api_name     TEXT    NOT NULL,
  sample       TEXT    CHECK (sample IS NULL OR json_valid(sample)),
  -- The schema inference so far (@jsonhero/schema-infer snapshot), merged with every new sample.
  inference    TEXT,
  -- Keys added or removed by hand, re-applied after every inference (JSON array).
  edits        TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(edits)),
  created_at   INTEGER NOT NULL,
  UNIQUE (publisher_id, api_name)
) STRICT;

CREATE TABLE router_schema_versions (
  event_config_id TEXT    NOT NULL REFERENCES router_event_configs (id),
  version         INTEGER NOT NULL CHECK (version >= 1),
  schema          TEXT    NOT NULL CHECK (json_valid(schema)),
  source          TEXT    NOT NULL CHECK (source IN ('sample', 'capture', 'edit', 'publisher')),
  created_at      INTEGER NOT NULL,
  PRIMARY KEY (event_config_id, version)
) STRICT;

CREATE TABLE router_targets (
  id         TEXT    PRIMARY KEY,
  name       TEXT    NOT NULL,
  kind       TEXT    NOT NULL CHECK (kind IN ('webhook', 'request_bin', 'fault')),
  status     TEXT    NOT NULL CHECK (status IN ('active', 'inactive', 'disabled', 'deleted')),
  -- url, method, headers, query, rateLimitPerSecond, timeoutMs, fault (JSON object).
  config     TEXT    NOT NULL CHECK (json_valid(config)),
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE router_rules (
  id          TEXT    PRIMARY KEY,
  name        TEXT    NOT NULL,
  status      TEXT    NOT NULL CHECK (status IN ('active', 'inactive', 'disabled', 'deleted')),
  retry_count INTEGER NOT NULL CHECK (retry_count >= 0),
  -- NULL delivers every event; otherwise an AND/OR group of conditions (JSON).
  filter      TEXT    CHECK (filter IS NULL OR json_valid(filter)),
  updated_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE router_rule_events (
  rule_id         TEXT NOT NULL REFERENCES router_rules (id) ON DELETE CASCADE,
  event_config_id TEXT NOT NULL REFERENCES router_event_configs (id),
  PRIMARY KEY (rule_id, event_config_id)
) STRICT;
CREATE INDEX router_rule_events_by_event ON router_rule_events (event_config_id);

CREATE TABLE router_rule_targets (
  rule_id   TEXT    NOT NULL REFERENCES router_rules (id) ON DELETE CASCADE,
  target_id TEXT    NOT NULL REFERENCES router_targets (id),
  position  INTEGER NOT NULL,
  PRIMARY KEY (rule_id, target_id)
) STRICT;

CREATE TABLE router_events (
  id               TEXT    PRIMARY KEY,
  publisher_id     TEXT    NOT NULL,
  event_config_id  TEXT    NOT NULL,
  api_name         TEXT    NOT NULL,
  -- Virtual epoch ms of generation (the payload's time_in_ms).
  time_ms          INTEGER NOT NULL,
  data             TEXT    NOT NULL CHECK (json_valid(data)),
  -- The schema version current when it arrived (the payload's `version`); NULL: no schema yet.
  version          INTEGER,
  stage            TEXT    NOT NULL CHECK (stage IN ('received', 'queued', 'routed')),
  publisher_status TEXT    NOT NULL CHECK (publisher_status IN ('active', 'inactive')),
  overall_status   TEXT    NOT NULL,
  schema_errors    TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(schema_errors)),
  redelivery_of    TEXT
) STRICT;
CREATE INDEX router_events_by_status ON router_events (overall_status, id);
CREATE INDEX router_events_by_publisher ON router_events (publisher_id, id);
CREATE INDEX router_events_by_time ON router_events (time_ms);

-- One row per (event, matched rule, target); rule and target statuses as they were when routed.
CREATE TABLE router_executions (
  id              TEXT    PRIMARY KEY,
  event_id        TEXT    NOT NULL REFERENCES router_events (id) ON DELETE CASCADE,
  rule_id         TEXT    NOT NULL,
  target_id       TEXT    NOT NULL,
  rule_status     TEXT    NOT NULL,
  target_status   TEXT    NOT NULL,
  status          TEXT    NOT NULL,
  retry_count     INTEGER NOT NULL,
  next_attempt_at INTEGER,
  note            TEXT
) STRICT;
CREATE INDEX router_executions_by_event ON router_executions (event_id);
CREATE INDEX router_executions_by_rule ON router_executions (rule_id, event_id);
-- Unfinished executions are resumed after a restart.
CREATE INDEX router_executions_unfinished ON router_executions (status)
  WHERE status IN ('In Queue', 'In Progress', 'Retry Scheduled');

CREATE TABLE router_attempts (
  execution_id TEXT    NOT NULL REFERENCES router_executions (id) ON DELETE CASCADE,
  attempt      INTEGER NOT NULL CHECK (attempt >= 1),
  started_at   INTEGER NOT NULL,
  finished_at  INTEGER,
  request      TEXT    NOT NULL CHECK (json_valid(request)),
  response     TEXT    CHECK (response IS NULL OR json_valid(response)),
  error        TEXT,
  outcome      TEXT    NOT NULL CHECK (outcome IN ('pending', 'success', 'retry', 'failed', 'dropped')),
  PRIMARY KEY (execution_id, attempt)
) STRICT;

-- What request-bin targets received.
CREATE TABLE router_bin_entries (
  id          INTEGER PRIMARY KEY,
  target_id   TEXT    NOT NULL,
  received_at INTEGER NOT NULL,
  method      TEXT    NOT NULL,
  url         TEXT    NOT NULL,
  headers     TEXT    NOT NULL CHECK (json_valid(headers)),
  body        TEXT
) STRICT;
CREATE INDEX router_bin_entries_by_target ON router_bin_entries (target_id, id);

-- Live capture URLs (spec 000: valid for 15 minutes).
CREATE TABLE router_captures (
  token           TEXT    PRIMARY KEY,
  event_config_id TEXT    NOT NULL REFERENCES router_event_configs (id),
  expires_at      INTEGER NOT NULL,
  captured        INTEGER NOT NULL DEFAULT 0
) STRICT;
