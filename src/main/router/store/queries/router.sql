-- name: getSetting
SELECT value FROM router_settings WHERE key = ?;

-- name: putSetting
INSERT INTO router_settings (key, value) VALUES (@key, @value)
ON CONFLICT (key) DO UPDATE SET value = excluded.value;

-- name: listPublishers
SELECT * FROM router_publishers ORDER BY kind = 'custom', created_at, id;

-- name: getPublisher
SELECT * FROM router_publishers WHERE id = ?;

-- name: getPublisherBySystemKey
SELECT * FROM router_publishers WHERE system_key = ?;

-- name: upsertPublisher
INSERT INTO router_publishers (id, name, kind, service, status, api_key_hash, api_key_hint, system_key, created_at)
VALUES (@id, @name, @kind, @service, @status, @apiKeyHash, @apiKeyHint, @systemKey, @createdAt)
ON CONFLICT (id) DO UPDATE SET
  name = excluded.name, kind = excluded.kind, service = excluded.service, status = excluded.status,
  api_key_hash = excluded.api_key_hash, api_key_hint = excluded.api_key_hint;

-- name: setPublisherStatus
UPDATE router_publishers SET status = @status WHERE id = @id;

-- name: setPublisherKey
UPDATE router_publishers SET api_key_hash = @apiKeyHash, api_key_hint = @apiKeyHint WHERE id = @id;

-- name: listEventConfigs
SELECT c.*, (SELECT MAX(version) FROM router_schema_versions v WHERE v.event_config_id = c.id) AS schema_version
FROM router_event_configs c ORDER BY c.created_at, c.id;

-- name: getEventConfig
SELECT c.*, (SELECT MAX(version) FROM router_schema_versions v WHERE v.event_config_id = c.id) AS schema_version
FROM router_event_configs c WHERE c.id = ?;

-- name: getEventConfigByName
SELECT c.*, (SELECT MAX(version) FROM router_schema_versions v WHERE v.event_config_id = c.id) AS schema_version
FROM router_event_configs c WHERE c.publisher_id = ? AND c.api_name = ?;

-- name: insertEventConfig
INSERT INTO router_event_configs (id, publisher_id, api_name, sample, inference, edits, created_at)
VALUES (@id, @publisherId, @apiName, @sample, NULL, '[]', @createdAt);

-- name: updateEventConfigSchemaState
UPDATE router_event_configs SET sample = COALESCE(@sample, sample), inference = @inference, edits = @edits
WHERE id = @id;

-- name: latestSchema
SELECT * FROM router_schema_versions WHERE event_config_id = ? ORDER BY version DESC LIMIT 1;

-- name: listSchemaVersions
SELECT * FROM router_schema_versions WHERE event_config_id = ? ORDER BY version DESC;

-- name: insertSchemaVersion
INSERT INTO router_schema_versions (event_config_id, version, schema, source, created_at)
VALUES (@eventConfigId, @version, @schema, @source, @createdAt);

-- name: listTargets
SELECT * FROM router_targets ORDER BY id;

-- name: getTarget
SELECT * FROM router_targets WHERE id = ?;

-- name: upsertTarget
INSERT INTO router_targets (id, name, kind, status, config, updated_at)
VALUES (@id, @name, @kind, @status, @config, @updatedAt)
ON CONFLICT (id) DO UPDATE SET
  name = excluded.name, kind = excluded.kind, status = excluded.status, config = excluded.config,
  updated_at = excluded.updated_at;

-- name: setTargetStatus
UPDATE router_targets SET status = @status, updated_at = @updatedAt WHERE id = @id;

-- name: listRules
SELECT r.*,
  (SELECT json_group_array(event_config_id) FROM router_rule_events e WHERE e.rule_id = r.id) AS event_ids,
  (SELECT json_group_array(target_id) FROM (SELECT target_id FROM router_rule_targets t WHERE t.rule_id = r.id ORDER BY position)) AS target_ids
FROM router_rules r ORDER BY r.id;

-- name: upsertRule
INSERT INTO router_rules (id, name, status, retry_count, filter, updated_at)
VALUES (@id, @name, @status, @retryCount, @filter, @updatedAt)
ON CONFLICT (id) DO UPDATE SET
  name = excluded.name, status = excluded.status, retry_count = excluded.retry_count,
  filter = excluded.filter, updated_at = excluded.updated_at;

-- name: clearRuleLinks
DELETE FROM router_rule_events WHERE rule_id = ?;

-- name: clearRuleTargets
DELETE FROM router_rule_targets WHERE rule_id = ?;

-- name: linkRuleEvent
INSERT INTO router_rule_events (rule_id, event_config_id) VALUES (?, ?);

-- name: linkRuleTarget
INSERT INTO router_rule_targets (rule_id, target_id, position) VALUES (?, ?, ?);

-- name: setRuleStatus
UPDATE router_rules SET status = @status, updated_at = @updatedAt WHERE id = @id;

-- name: getEvent
SELECT * FROM router_events WHERE id = ?;

-- name: unroutedEvents
-- Stored as Received but not routed yet when the process stopped: routed again at start-up.
SELECT * FROM router_events WHERE stage = 'received' ORDER BY time_ms, id;

-- name: getExecution
SELECT * FROM router_executions WHERE id = ?;

-- name: executionsOfEvent
SELECT * FROM router_executions WHERE event_id = ? ORDER BY id;

-- name: executionStatusesOfEvent
SELECT id, rule_status, target_status, status FROM router_executions WHERE event_id = ?;

-- name: unfinishedExecutions
SELECT * FROM router_executions
WHERE status IN ('In Queue', 'In Progress', 'Retry Scheduled') ORDER BY id;

-- name: attemptsOfEvent
SELECT a.* FROM router_attempts a JOIN router_executions x ON x.id = a.execution_id
WHERE x.event_id = ? ORDER BY a.execution_id, a.attempt;

-- name: lastAttempt
SELECT MAX(attempt) AS attempt FROM router_attempts WHERE execution_id = ?;

-- name: listBinEntries
SELECT * FROM router_bin_entries WHERE target_id = ? ORDER BY id DESC LIMIT ?;

-- name: insertCapture
INSERT INTO router_captures (token, event_config_id, expires_at) VALUES (@token, @eventConfigId, @expiresAt);

-- name: getCapture
SELECT * FROM router_captures WHERE token = ?;

-- name: countCapture
UPDATE router_captures SET captured = captured + 1 WHERE token = ?;

-- name: listEvents
SELECT e.id, e.publisher_id, e.event_config_id, e.api_name, e.overall_status, e.time_ms,
  (SELECT json_group_array(DISTINCT rule_id) FROM router_executions x WHERE x.event_id = e.id) AS rule_ids
FROM router_events e
WHERE (@status IS NULL OR e.overall_status = @status)
  AND (@publisherId IS NULL OR e.publisher_id = @publisherId)
  AND (@ruleId IS NULL OR EXISTS (SELECT 1 FROM router_executions x WHERE x.event_id = e.id AND x.rule_id = @ruleId))
  AND (@fromMs IS NULL OR e.time_ms >= @fromMs)
  AND (@toMs IS NULL OR e.time_ms <= @toMs)
ORDER BY e.id DESC
LIMIT @limit OFFSET @offset;

-- name: countEvents
SELECT COUNT(*) AS total
FROM router_events e
WHERE (@status IS NULL OR e.overall_status = @status)
  AND (@publisherId IS NULL OR e.publisher_id = @publisherId)
  AND (@ruleId IS NULL OR EXISTS (SELECT 1 FROM router_executions x WHERE x.event_id = e.id AND x.rule_id = @ruleId))
  AND (@fromMs IS NULL OR e.time_ms >= @fromMs)
  AND (@toMs IS NULL OR e.time_ms <= @toMs);
