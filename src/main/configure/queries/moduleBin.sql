-- The module bin as known here (migration 0012_config_ops.sql): src/main/configure/moduleBinRepository.ts.

-- name: insert
INSERT INTO module_bin (portal_id, module_id, api_name, singular_name, plural_name, details,
  records, trashed_time)
VALUES (@portalId, @moduleId, @apiName, @singularName, @pluralName, @details, @records,
  @trashedTime)
ON CONFLICT (portal_id, module_id) DO UPDATE SET api_name = excluded.api_name,
  singular_name = excluded.singular_name, plural_name = excluded.plural_name,
  details = excluded.details, records = excluded.records, trashed_time = excluded.trashed_time;

-- name: ofPortal
SELECT module_id AS id, api_name AS apiName, singular_name AS singularName,
  plural_name AS pluralName, details, records, trashed_time AS trashedTime
FROM module_bin WHERE portal_id = ? ORDER BY plural_name;

-- name: one
SELECT module_id AS id, api_name AS apiName, singular_name AS singularName,
  plural_name AS pluralName, details, records, trashed_time AS trashedTime
FROM module_bin WHERE portal_id = ? AND module_id = ?;

-- name: remove
DELETE FROM module_bin WHERE portal_id = ? AND module_id = ?;
