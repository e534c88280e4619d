-- name: all
SELECT
  key,
  limit_calls     AS limitCalls,
  window_ms       AS windowMs,
  sends_before_ms AS sendsBeforeMs,
  blocked_until   AS blockedUntil,
  updated_at      AS updatedAt
FROM request_budgets;

-- name: upsert
INSERT INTO request_budgets (key, limit_calls, window_ms, sends_before_ms, blocked_until, updated_at)
VALUES (@key, @limitCalls, @windowMs, @sendsBeforeMs, @blockedUntil, @updatedAt)
ON CONFLICT (key) DO UPDATE SET
  limit_calls     = excluded.limit_calls,
  window_ms       = excluded.window_ms,
  sends_before_ms = excluded.sends_before_ms,
  blocked_until   = excluded.blocked_until,
  updated_at      = excluded.updated_at;
