-- Who the service names as the creator of what this app made in a portal (the signed-in user's
-- zpuid there: a record's owner, a comment's created_by), learnt from the answers to the
-- outbox's own creates. A create or comment whose answer was lost is looked up before it is sent
-- again (src/main/outbox/findLostCreate.ts); an identical one another user made at about the same
-- time is not ours. Owned by the outbox (queries/outbox.sql).
CREATE TABLE outbox_authors (
  portal_id  TEXT PRIMARY KEY,
  zpuid      TEXT NOT NULL,
  learnt_at  TEXT NOT NULL
) STRICT;
