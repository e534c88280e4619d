-- Times the service wrote with an offset or another precision, stored as sent before they were
-- read as canonical instants (packages/portal-api/src/domain/instant.ts), rewritten the one way
-- every time is now stored: `YYYY-MM-DDTHH:mm:ss.SSSZ` in UTC. The mirror compares times as text
-- (a pull replaces a copy only if not older; lists filter and sort by time; the overview counts
-- weeks; comments count as mirrored while read at the record's last change), and text orders
-- instants only when all are written alike. Only rows not in that shape are touched: on a mirror
-- the service always wrote in it, every statement changes nothing.

UPDATE records SET created_time = pd_instant(created_time)
WHERE created_time NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

UPDATE records SET last_updated_time = pd_instant(last_updated_time)
WHERE last_updated_time NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

UPDATE records SET trashed_time = pd_instant(trashed_time)
WHERE trashed_time NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

-- The record's last_updated_time when its comments were read: compared with the record's own.
UPDATE comment_sync SET record_updated_at = pd_instant(record_updated_at)
WHERE record_updated_at NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

UPDATE comments SET created_time = pd_instant(created_time)
WHERE created_time NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

UPDATE comments SET last_updated_time = pd_instant(last_updated_time)
WHERE last_updated_time NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

-- A record's status changes are listed in the order of these times.
UPDATE status_timeline SET changed_time = pd_instant(changed_time)
WHERE changed_time NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

-- A backup's times from the service: counted against records' created_time (how many records a
-- backup holds) and compared with one another to find the newest.
UPDATE backups SET requested_time = pd_instant(requested_time)
WHERE requested_time NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

UPDATE backups SET completed_time = pd_instant(completed_time)
WHERE completed_time NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

-- A queued trash or restore keeps the record's trashed_time it started from, written back into
-- records.trashed_time when the operation is discarded or undone.
UPDATE outbox_ops
SET fields = json_set(fields, '$.trashed_time.base', pd_instant(fields ->> '$.trashed_time.base'))
WHERE kind IN ('trash', 'restore') AND fields ->> '$.trashed_time.base' NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';

-- Custom time stamp fields' values, as the upsert now stores them (recordRepository.ts
-- storedCustom): their filters compare them as text. Each record whose time stamp value is not
-- in the canonical shape is written again key by key, in its order, every other value as it was.
UPDATE records SET custom = (
  SELECT json_group_object(
    j.key,
    CASE WHEN f.api_name IS NOT NULL AND j.type = 'text' THEN pd_instant(j.value)
         ELSE json(records.custom -> j.fullkey) END
    ORDER BY j.id)
  FROM json_each(records.custom) j
  LEFT JOIN modules m ON m.module_key = records.module_key
  LEFT JOIN fields f ON f.portal_id = m.portal_id AND f.module_id = m.id AND f.api_name = j.key
    AND f.field_type = 'timestamp'
)
WHERE EXISTS (
  SELECT 1 FROM modules m JOIN fields f ON f.portal_id = m.portal_id AND f.module_id = m.id
  WHERE m.module_key = records.module_key AND f.field_type = 'timestamp'
    AND json_type(records.custom, '$."' || f.api_name || '"') = 'text'
    AND (records.custom ->> ('$."' || f.api_name || '"')) NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'
);

-- A time stamp field stored after records holding it (a first sync stores a module's fields and
-- its first pages side by side; a field made a time stamp later): its values in that module's
-- records are rewritten then, once, since later pulls bring only records that changed.
CREATE TRIGGER fields_timestamp_insert AFTER INSERT ON fields WHEN NEW.field_type = 'timestamp'
BEGIN
  UPDATE records
  SET custom = json_set(custom, '$."' || NEW.api_name || '"',
                        pd_instant(custom ->> ('$."' || NEW.api_name || '"')))
  WHERE module_key = (SELECT module_key FROM modules WHERE portal_id = NEW.portal_id AND id = NEW.module_id)
    AND json_type(custom, '$."' || NEW.api_name || '"') = 'text'
    AND (custom ->> ('$."' || NEW.api_name || '"')) NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';
END;

CREATE TRIGGER fields_timestamp_update AFTER UPDATE OF field_type, api_name ON fields
WHEN NEW.field_type = 'timestamp' AND (OLD.field_type <> 'timestamp' OR OLD.api_name <> NEW.api_name)
BEGIN
  UPDATE records
  SET custom = json_set(custom, '$."' || NEW.api_name || '"',
                        pd_instant(custom ->> ('$."' || NEW.api_name || '"')))
  WHERE module_key = (SELECT module_key FROM modules WHERE portal_id = NEW.portal_id AND id = NEW.module_id)
    AND json_type(custom, '$."' || NEW.api_name || '"') = 'text'
    AND (custom ->> ('$."' || NEW.api_name || '"')) NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';
END;
