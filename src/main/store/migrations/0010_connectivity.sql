-- The "Work offline" switch gets one owner (src/main/connectivity/connectivity.ts): the table that
-- held it, and nothing else, was the outbox's.
ALTER TABLE outbox_settings RENAME TO connectivity_settings;
