-- A portal's mirrored metadata (the tables of migration 0002 that describe a portal, not its
-- records) copied from another mirror attached as `source`, into a fresh database of the same
-- schema: src/main/store/mirror/portalMetadataCopy.ts. Parents before children (foreign keys).
-- Columns are named, so a later migration adding a column to either side cannot shift values.

-- name: portals
INSERT INTO main.portals (id, account_id, dc, name, org_name, timezone, week_start_day,
  is_default, details, mirrored_at)
SELECT id, account_id, dc, name, org_name, timezone, week_start_day, is_default, details,
  mirrored_at
FROM source.portals WHERE id = ?;

-- name: users
INSERT INTO main.portal_users (portal_id, zpuid, name, email, status, invite_status,
  is_team_lead, reports_to)
SELECT portal_id, zpuid, name, email, status, invite_status, is_team_lead, reports_to
FROM source.portal_users WHERE portal_id = ?;

-- name: modules
INSERT INTO main.modules (module_key, portal_id, id, api_name, singular_name, plural_name,
  icon_class, is_active, is_default, details, created_time)
SELECT module_key, portal_id, id, api_name, singular_name, plural_name, icon_class, is_active,
  is_default, details, created_time
FROM source.modules WHERE portal_id = ?;

-- name: layouts
INSERT INTO main.layouts (portal_id, id, module_id, name, type, is_default, reference_id,
  created_time)
SELECT portal_id, id, module_id, name, type, is_default, reference_id, created_time
FROM source.layouts WHERE portal_id = ?;

-- name: sections
INSERT INTO main.sections (portal_id, id, layout_id, name, position)
SELECT portal_id, id, layout_id, name, position FROM source.sections WHERE portal_id = ?;

-- name: fields
INSERT INTO main.fields (portal_id, id, module_id, api_name, display_name, field_type, data_type,
  is_default, is_mandatory, field_property, created_time)
SELECT portal_id, id, module_id, api_name, display_name, field_type, data_type, is_default,
  is_mandatory, field_property, created_time
FROM source.fields WHERE portal_id = ?;

-- name: layoutFields
INSERT INTO main.layout_fields (portal_id, layout_id, field_id, section_id, position)
SELECT portal_id, layout_id, field_id, section_id, position
FROM source.layout_fields WHERE portal_id = ?;

-- name: fieldOptions
INSERT INTO main.field_options (portal_id, field_id, kind, value_id, value, layout_id, position)
SELECT portal_id, field_id, kind, value_id, value, layout_id, position
FROM source.field_options WHERE portal_id = ?;

-- name: statuses
INSERT INTO main.statuses (portal_id, id, module_id, name, color, is_closed_type, is_default,
  position)
SELECT portal_id, id, module_id, name, color, is_closed_type, is_default, position
FROM source.statuses WHERE portal_id = ?;

-- name: statusTransitions
INSERT INTO main.status_transitions (portal_id, from_status_id, to_status_id)
SELECT portal_id, from_status_id, to_status_id FROM source.status_transitions WHERE portal_id = ?;
