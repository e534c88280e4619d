-- The request scheduler's budget per endpoint key (data center + method + route template +
-- portal), so a restart does not forget the calls already spent: past 200 calls in 2 minutes the
-- service blocks that endpoint for 10 minutes.
CREATE TABLE request_budgets (
  key             TEXT    PRIMARY KEY,
  -- What the server's RateLimit and RateLimit-Window headers said last (the spec's 200 / 120 s
  -- until then).
  limit_calls     INTEGER NOT NULL CHECK (limit_calls >= 1),
  window_ms       INTEGER NOT NULL CHECK (window_ms >= 1),
  -- Calls inside the window, oldest first, as milliseconds before updated_at: a JSON array of
  -- small integers rather than 13-digit timestamps.
  sends_before_ms TEXT    NOT NULL CHECK (json_valid(sends_before_ms)),
  -- Epoch ms until which a 429's Retry-After keeps this key closed; NULL when open.
  blocked_until   INTEGER,
  updated_at      INTEGER NOT NULL
) STRICT;
