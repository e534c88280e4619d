-- The delivery path's writes (applyRouterWrites.ts), run by the group commit on the engine's
-- connection or on the writer thread's. Parameters are named as the rows' columns, so a queued
-- row binds as it is.

-- name: insertEvent
INSERT INTO router_events (id, publisher_id, event_config_id, api_name, time_ms, data, version, stage,
  publisher_status, overall_status, schema_errors, redelivery_of)
VALUES (@id, @publisher_id, @event_config_id, @api_name, @time_ms, @data, @version, @stage,
  @publisher_status, @overall_status, @schema_errors, @redelivery_of);

-- name: markRouted
UPDATE router_events SET stage = 'routed', overall_status = @overall_status WHERE id = @id;

-- name: setOverallStatus
UPDATE router_events SET overall_status = @overall_status WHERE id = @id;

-- name: insertExecution
INSERT INTO router_executions (id, event_id, rule_id, target_id, rule_status, target_status, status,
  retry_count, next_attempt_at, note)
VALUES (@id, @event_id, @rule_id, @target_id, @rule_status, @target_status, @status, @retry_count,
  @next_attempt_at, @note);

-- name: updateExecution
UPDATE router_executions SET status = @status, next_attempt_at = @next_attempt_at, note = @note
WHERE id = @id;

-- name: insertAttempt
-- A started attempt (outcome 'pending'), or a whole one when its end came before the commit.
INSERT INTO router_attempts (execution_id, attempt, started_at, finished_at, request, response, error, outcome)
VALUES (@execution_id, @attempt, @started_at, @finished_at, @request, @response, @error, @outcome);

-- name: finishAttempt
UPDATE router_attempts SET finished_at = @finished_at, response = @response, error = @error, outcome = @outcome
WHERE execution_id = @execution_id AND attempt = @attempt;

-- name: deleteAttempt
-- An attempt stored as started but never sent (the router closed first).
DELETE FROM router_attempts WHERE execution_id = @execution_id AND attempt = @attempt;

-- name: insertBinEntry
INSERT INTO router_bin_entries (target_id, received_at, method, url, headers, body)
VALUES (@target_id, @received_at, @method, @url, @headers, @body);
