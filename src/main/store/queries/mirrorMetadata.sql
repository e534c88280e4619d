-- The mirror's portals, people, modules, layouts, sections, fields, options and statuses
-- (src/main/store/mirror/metadataRepository.ts). Each upsert's DO UPDATE runs only when a stored
-- value differs, so `changes` tells a real update from a repeated one.

-- name: portalIdsOfAccount
SELECT id FROM portals WHERE account_id = ? AND dc = ?;

-- name: portalIdsIn
SELECT id FROM portals WHERE id IN (SELECT value FROM json_each(?));

-- name: upsertPortal
INSERT INTO portals (id, account_id, dc, name, org_name, timezone, week_start_day, is_default, details, mirrored_at)
VALUES (@id, @accountId, @dc, @name, @orgName, @timeZone, @weekStartDay, @isDefault, @details, @now)
ON CONFLICT (id) DO UPDATE SET
  account_id = excluded.account_id, dc = excluded.dc, name = excluded.name,
  org_name = excluded.org_name, timezone = excluded.timezone,
  week_start_day = excluded.week_start_day, is_default = excluded.is_default,
  details = excluded.details, mirrored_at = excluded.mirrored_at
WHERE (portals.account_id, portals.dc, portals.name, portals.org_name, portals.timezone,
       portals.week_start_day, portals.is_default, portals.details)
  IS NOT (excluded.account_id, excluded.dc, excluded.name, excluded.org_name, excluded.timezone,
          excluded.week_start_day, excluded.is_default, excluded.details);

-- name: deletePortal
DELETE FROM portals WHERE id = ?;

-- name: deletePortalsOfAccount
-- Every table of the mirror is keyed by portal: deleting an account's portals cascades to modules,
-- records, comments and the full-text index.
DELETE FROM portals WHERE account_id = ?;

-- name: portal
SELECT id, account_id AS accountId, dc, name, org_name AS orgName, timezone AS timeZone,
       week_start_day AS weekStartDay, is_default AS isDefault, details
FROM portals WHERE id = ?;

-- name: userIdsIn
SELECT zpuid FROM portal_users WHERE portal_id = ? AND zpuid IN (SELECT value FROM json_each(?));

-- name: upsertUser
-- Facts not given (NULL) keep what is stored: each source of people knows only some of them.
INSERT INTO portal_users (portal_id, zpuid, name, email, status, invite_status, is_team_lead, reports_to)
VALUES (@portalId, @zpuid, @name, @email, @status, @inviteStatus, @isTeamLead, @reportsTo)
ON CONFLICT (portal_id, zpuid) DO UPDATE SET
  name = coalesce(excluded.name, name), email = coalesce(excluded.email, email),
  status = coalesce(excluded.status, status), invite_status = coalesce(excluded.invite_status, invite_status),
  is_team_lead = coalesce(excluded.is_team_lead, is_team_lead), reports_to = coalesce(excluded.reports_to, reports_to)
WHERE (name, email, status, invite_status, is_team_lead, reports_to)
  IS NOT (coalesce(excluded.name, name), coalesce(excluded.email, email),
          coalesce(excluded.status, status), coalesce(excluded.invite_status, invite_status),
          coalesce(excluded.is_team_lead, is_team_lead), coalesce(excluded.reports_to, reports_to));

-- name: users
SELECT zpuid, name, email, status, invite_status AS inviteStatus, is_team_lead AS isTeamLead,
       reports_to AS reportsTo
FROM portal_users WHERE portal_id = ? ORDER BY name, zpuid;

-- name: moduleIds
SELECT id FROM modules WHERE portal_id = ?;

-- name: upsertModule
INSERT INTO modules (portal_id, id, api_name, singular_name, plural_name, icon_class, is_active, is_default, details, created_time)
VALUES (@portalId, @id, @apiName, @singularName, @pluralName, @iconClass, @isActive, @isDefault, @details, @createdTime)
ON CONFLICT (portal_id, id) DO UPDATE SET
  api_name = excluded.api_name, singular_name = excluded.singular_name,
  plural_name = excluded.plural_name, icon_class = excluded.icon_class,
  is_active = excluded.is_active, is_default = excluded.is_default,
  details = excluded.details, created_time = excluded.created_time
WHERE (modules.api_name, modules.singular_name, modules.plural_name, modules.icon_class,
       modules.is_active, modules.is_default, modules.details, modules.created_time)
  IS NOT (excluded.api_name, excluded.singular_name, excluded.plural_name, excluded.icon_class,
          excluded.is_active, excluded.is_default, excluded.details, excluded.created_time);

-- name: layoutsOfModule
SELECT id, name, type, is_default AS isDefault, reference_id AS referenceId FROM layouts
WHERE portal_id = ? AND module_id = ? ORDER BY is_default DESC, name, id;

-- name: deleteModule
-- One module (a configuration change replayed: trashed or deleted on the service); its layouts,
-- fields, statuses and records go with it (foreign keys).
DELETE FROM modules WHERE portal_id = ? AND id = ? RETURNING id;

-- name: deleteModulesNotIn
DELETE FROM modules WHERE portal_id = ? AND id NOT IN (SELECT value FROM json_each(?)) RETURNING id;

-- name: modules
SELECT module_key AS moduleKey, id, api_name AS apiName, singular_name AS singularName,
       plural_name AS pluralName, icon_class AS iconClass, is_active AS isActive,
       is_default AS isDefault, details, created_time AS createdTime
FROM modules WHERE portal_id = ? ORDER BY singular_name, id;

-- name: moduleKey
SELECT module_key AS moduleKey FROM modules WHERE portal_id = ? AND id = ?;

-- name: layoutIds
SELECT id FROM layouts WHERE portal_id = ? AND module_id = ?;

-- name: upsertLayout
INSERT INTO layouts (portal_id, id, module_id, name, type, is_default, reference_id, created_time)
VALUES (@portalId, @id, @moduleId, @name, @type, @isDefault, @referenceId, @createdTime)
ON CONFLICT (portal_id, id) DO UPDATE SET
  module_id = excluded.module_id, name = excluded.name, type = excluded.type,
  is_default = excluded.is_default, reference_id = excluded.reference_id,
  created_time = excluded.created_time
WHERE (layouts.module_id, layouts.name, layouts.type, layouts.is_default, layouts.reference_id,
       layouts.created_time)
  IS NOT (excluded.module_id, excluded.name, excluded.type, excluded.is_default,
          excluded.reference_id, excluded.created_time);

-- name: deleteLayoutsNotIn
DELETE FROM layouts WHERE portal_id = ? AND module_id = ? AND id NOT IN (SELECT value FROM json_each(?))
RETURNING id;

-- name: sectionIds
SELECT id FROM sections WHERE portal_id = ? AND layout_id = ?;

-- name: upsertSection
INSERT INTO sections (portal_id, id, layout_id, name, position)
VALUES (@portalId, @id, @layoutId, @name, @position)
ON CONFLICT (portal_id, id) DO UPDATE SET
  layout_id = excluded.layout_id, name = excluded.name, position = excluded.position
WHERE (sections.layout_id, sections.name, sections.position)
  IS NOT (excluded.layout_id, excluded.name, excluded.position);

-- name: deleteSectionsNotIn
DELETE FROM sections WHERE portal_id = ? AND layout_id = ? AND id NOT IN (SELECT value FROM json_each(?))
RETURNING id;

-- name: placedFieldIds
SELECT field_id AS id FROM layout_fields WHERE portal_id = ? AND layout_id = ?;

-- name: upsertPlacement
INSERT INTO layout_fields (portal_id, layout_id, field_id, section_id, position)
VALUES (@portalId, @layoutId, @fieldId, @sectionId, @position)
ON CONFLICT (portal_id, layout_id, field_id) DO UPDATE SET
  section_id = excluded.section_id, position = excluded.position
WHERE (layout_fields.section_id, layout_fields.position) IS NOT (excluded.section_id, excluded.position);

-- name: deletePlacementsNotIn
DELETE FROM layout_fields
WHERE portal_id = ? AND layout_id = ? AND field_id NOT IN (SELECT value FROM json_each(?))
RETURNING field_id AS id;

-- name: fieldIds
SELECT id FROM fields WHERE portal_id = ? AND module_id = ?;

-- name: upsertField
INSERT INTO fields (portal_id, id, module_id, api_name, display_name, field_type, data_type, is_default, is_mandatory, field_property, created_time)
VALUES (@portalId, @id, @moduleId, @apiName, @displayName, @fieldType, @dataType, @isDefault, @isMandatory, @fieldProperty, @createdTime)
ON CONFLICT (portal_id, id) DO UPDATE SET
  module_id = excluded.module_id, api_name = excluded.api_name,
  display_name = excluded.display_name, field_type = excluded.field_type,
  data_type = excluded.data_type, is_default = excluded.is_default,
  is_mandatory = excluded.is_mandatory, field_property = excluded.field_property,
  created_time = excluded.created_time
WHERE (fields.module_id, fields.api_name, fields.display_name, fields.field_type, fields.data_type,
       fields.is_default, fields.is_mandatory, fields.field_property, fields.created_time)
  IS NOT (excluded.module_id, excluded.api_name, excluded.display_name, excluded.field_type,
          excluded.data_type, excluded.is_default, excluded.is_mandatory, excluded.field_property,
          excluded.created_time);

-- name: deleteFieldsNotIn
DELETE FROM fields WHERE portal_id = ? AND module_id = ? AND id NOT IN (SELECT value FROM json_each(?))
RETURNING id;

-- name: fields
SELECT id, api_name AS apiName, display_name AS displayName, field_type AS fieldType,
       data_type AS dataType, is_default AS isDefault, is_mandatory AS isMandatory,
       field_property AS fieldProperty, created_time AS createdTime
FROM fields WHERE portal_id = ? AND module_id = ? ORDER BY api_name;

-- name: optionKeys
SELECT kind || ':' || value_id AS id FROM field_options WHERE portal_id = ? AND field_id = ?;

-- name: upsertOption
INSERT INTO field_options (portal_id, field_id, kind, value_id, value, layout_id, position)
VALUES (@portalId, @fieldId, @kind, @valueId, @value, @layoutId, @position)
ON CONFLICT (portal_id, field_id, kind, value_id) DO UPDATE SET
  value = excluded.value, layout_id = excluded.layout_id, position = excluded.position
WHERE (field_options.value, field_options.layout_id, field_options.position)
  IS NOT (excluded.value, excluded.layout_id, excluded.position);

-- name: deleteOptionsNotIn
DELETE FROM field_options
WHERE portal_id = ? AND field_id = ? AND kind || ':' || value_id NOT IN (SELECT value FROM json_each(?))
RETURNING kind || ':' || value_id AS id;

-- name: moduleOptions
-- Every option of every field of a module: filters map multi-select option ids to names with it.
SELECT o.field_id AS fieldId, o.kind, o.value_id AS valueId, o.value, o.layout_id AS layoutId,
       o.position
FROM field_options o JOIN fields f ON f.portal_id = o.portal_id AND f.id = o.field_id
WHERE f.portal_id = ? AND f.module_id = ?
ORDER BY o.field_id, o.position, o.value_id;

-- name: statusIds
SELECT id FROM statuses WHERE portal_id = ? AND module_id = ?;

-- name: upsertStatus
INSERT INTO statuses (portal_id, id, module_id, name, color, is_closed_type, is_default, position)
VALUES (@portalId, @id, @moduleId, @name, @color, @isClosedType, @isDefault, @position)
ON CONFLICT (portal_id, id) DO UPDATE SET
  module_id = excluded.module_id, name = excluded.name, color = excluded.color,
  is_closed_type = excluded.is_closed_type, is_default = excluded.is_default,
  position = excluded.position
WHERE (statuses.module_id, statuses.name, statuses.color, statuses.is_closed_type,
       statuses.is_default, statuses.position)
  IS NOT (excluded.module_id, excluded.name, excluded.color, excluded.is_closed_type,
          excluded.is_default, excluded.position);

-- name: deleteStatusesNotIn
DELETE FROM statuses WHERE portal_id = ? AND module_id = ? AND id NOT IN (SELECT value FROM json_each(?))
RETURNING id;

-- name: transitionsOf
SELECT to_status_id AS id FROM status_transitions WHERE portal_id = ? AND from_status_id = ?
ORDER BY to_status_id;

-- name: deleteTransitionsOf
DELETE FROM status_transitions WHERE portal_id = ? AND from_status_id = ?;

-- name: insertTransition
INSERT INTO status_transitions (portal_id, from_status_id, to_status_id) VALUES (?, ?, ?)
ON CONFLICT DO NOTHING;

-- name: statuses
SELECT id, name, color, is_closed_type AS isClosedType, is_default AS isDefault, position
FROM statuses WHERE portal_id = ? AND module_id = ? ORDER BY position, id;

-- name: queuedStatusChanges
-- A module's queued status changes, in queue order (outbox_ops of src/main/configure/statusOps.ts,
-- in its configuration queue `'layouts:' || module id`, index outbox_ops_record): what the
-- records workspace reads names statuses as they leave them (statusesNamedAsQueued).
SELECT kind, action, state, fields FROM outbox_ops
WHERE portal_id = ? AND record_id = 'layouts:' || ? AND kind = 'config'
  AND action IN ('status.updateStatuses')
ORDER BY seq;

-- name: queuedFieldChanges
-- A module's queued changes and deletions of fields (src/main/configure/fieldOps.ts), in queue
-- order, from its configuration queue as queuedStatusChanges reads it: the records workspace's
-- columns name fields, and leave deleted ones out, as they leave them (fieldsNamedAsQueued).
SELECT action, fields FROM outbox_ops
WHERE portal_id = ? AND record_id = 'layouts:' || ? AND kind = 'config'
  AND action IN ('field.updateField', 'field.deleteField')
ORDER BY seq;

-- name: queuedOptionChanges
-- A module's queued option changes (add, rename, remove, move: src/main/configure/optionOps.ts),
-- in queue order, from its configuration queue as queuedStatusChanges reads it: what the records
-- workspace reads names options, and shows the values records hold, as they leave them
-- (optionsAsQueued).
SELECT action, fields FROM outbox_ops
WHERE portal_id = ? AND record_id = 'layouts:' || ? AND kind = 'config'
  AND action IN ('option.addOptions', 'option.renameOptions', 'option.removeOptions',
                 'option.moveOption')
ORDER BY seq;

-- name: deletePortalRoles
-- The roles a portal offers (migration 0014_portal_roles.sql), replaced whole by each read.
DELETE FROM portal_roles WHERE portal_id = ?;

-- name: insertPortalRole
INSERT INTO portal_roles (portal_id, id, name, position) VALUES (@portalId, @id, @name, @position);

-- name: portalRoles
SELECT id, name FROM portal_roles WHERE portal_id = ? ORDER BY position, id;

-- name: rememberGoneModules
-- The portal's modules a sync no longer finds listed (@listed: a JSON array of ids), kept by name
-- before they leave the mirror (0025_modules_gone.sql).
INSERT OR REPLACE INTO modules_gone (portal_id, id, api_name, plural_name)
SELECT portal_id, id, api_name, plural_name FROM modules
WHERE portal_id = @portalId AND id NOT IN (SELECT value FROM json_each(@listed));

-- name: forgetListedModules
-- Modules listed again are not gone.
DELETE FROM modules_gone
WHERE portal_id = @portalId AND id IN (SELECT value FROM json_each(@listed));

-- name: goneModule
SELECT id, api_name AS apiName, plural_name AS pluralName FROM modules_gone
WHERE portal_id = ? AND id = ?;

-- name: moduleNames
-- A module's names as changes of it queued here show them: the mirror's, else those a sync kept
-- when it found the module gone from the service's list (0025_modules_gone.sql).
SELECT apiName, pluralName FROM (
  SELECT 0 AS rank, api_name AS apiName, plural_name AS pluralName FROM modules
  WHERE portal_id = @portalId AND id = @moduleId
  UNION ALL
  SELECT 1, api_name, plural_name FROM modules_gone
  WHERE portal_id = @portalId AND id = @moduleId
) ORDER BY rank LIMIT 1;
