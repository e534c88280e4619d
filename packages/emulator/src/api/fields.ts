/**
 * Fields (spec "Fields and options"): list with filters, create or update (PUT), delete, and the
 * layouts a field is on. System fields (is_default: name, description, status, owner, project)
 * can be renamed and moved but not retyped, reconfigured or deleted.
 */
import {
  CUSTOM_FIELD_TYPE_NAMES,
  CUSTOM_FIELD_TYPES,
  isCustomFieldType,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import { apiErrors } from '../http/apiError';
import type { Route } from '../http/types';
import type { EmulatorState } from '../state';
import { fieldApiName } from '../settings/apiNames';
import { mergeFieldProperty, readFieldProperty } from '../settings/fieldProperty';
import { DATA_TYPE_MAX, FIELD_DISPLAY_NAME_MAX, FIELD_TYPE_MAX } from '../settings/limits';
import {
  bodyModule,
  defaultLayout,
  fieldsOf,
  filterBool,
  filterText,
  idObjects,
  moduleInProject,
  portalProjects,
  queryModule,
  readIndexRange,
  requireField,
  requireLayout,
  requireSection,
  sectionsOf,
  type FieldRow,
  type LayoutRow,
} from '../settings/lookups';
import { arrange, parsePosition, type Position } from '../settings/position';
import { fieldView } from '../settings/views';
import {
  bodyObject,
  idString,
  paginate,
  parseId,
  queryJson,
  readPage,
  requirePortal,
  text,
  type ModuleRow,
} from './common';

const PREFIX = '/api/v3/portal/{portal_id}/settings/fields';
const scope = (op: 'READ' | 'CREATE' | 'DELETE') => [`PMS.custom_fields.${op}`];

interface Placement {
  layout_id: number;
  layout_name: string;
  section_id: number;
  section_name: string;
  section_position: number;
  position: number;
}

/** Where a field sits in each layout, with its rank in its section. */
function placements(state: EmulatorState, fieldId: number) {
  const rows = state.db
    .prepare(
      `SELECT lf.layout_id, l.name AS layout_name, lf.section_id, s.name AS section_name,
         s.position AS section_position,
         (SELECT COUNT(*) FROM layout_fields o WHERE o.layout_id = lf.layout_id AND o.section_id = lf.section_id
            AND (o.position < lf.position OR (o.position = lf.position AND o.field_id < lf.field_id))) + 1 AS position
       FROM layout_fields lf JOIN layouts l ON l.id = lf.layout_id JOIN sections s ON s.id = lf.section_id
       WHERE lf.field_id = ? ORDER BY l.is_default DESC, l.id`,
    )
    .all(fieldId) as Placement[];
  return rows;
}

function placementView(row: Placement) {
  return {
    id: idString(row.layout_id),
    name: row.layout_name,
    section: { id: idString(row.section_id), name: row.section_name },
    position: row.position,
  };
}

function fullFieldView(state: EmulatorState, row: FieldRow) {
  return { ...fieldView(row), layouts: placements(state, row.id).map(placementView) };
}

const listFields: Route = {
  method: 'GET',
  template: PREFIX,
  kind: 'api',
  scopes: scope('READ'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const page = readPage(request.query, true);
    readIndexRange(request.query, false);
    const filter = queryJson(request.query, 'filter') ?? {};
    const flags = {
      is_mandatory: filterBool(filter, 'is_mandatory'),
      is_renamed: filterBool(filter, 'is_renamed'),
      is_default: filterBool(filter, 'is_default'),
      is_formula_based_list: filterBool(filter, 'is_formula_based_list'),
    };
    const unassociated = filterBool(filter, 'is_unassociated');
    const withAssociation = filterBool(filter, 'is_association_info_needed') ?? false;
    const layout =
      filter.layout_id === undefined || filter.layout_id === null
        ? undefined
        : requireLayout(state, module, filter.layout_id, 'filter.layout_id');
    let projectId: number | undefined;
    if (filter.project_id !== undefined && filter.project_id !== null) {
      projectId = parseId(filter.project_id, 'filter.project_id');
      if (!portalProjects(state, portal.id).has(projectId))
        throw apiErrors.notFound(`Project ${projectId}`);
    }
    const ids =
      filter.field_ids === undefined
        ? undefined
        : new Set(idList(filter.field_ids, 'filter.field_ids'));
    const names =
      filter.fields === undefined ? undefined : new Set(nameList(filter.fields, 'filter.fields'));
    const term = filterText(filter, 'search_term')?.trim().toLowerCase() ?? '';

    const placed = new Map<number, number>();
    if (layout) {
      // Layout order: by section, then by position in the section.
      const rows = state.db
        .prepare(
          `SELECT lf.field_id FROM layout_fields lf JOIN sections s ON s.id = lf.section_id
           WHERE lf.layout_id = ? ORDER BY s.position, s.id, lf.position, lf.field_id`,
        )
        .all(layout.id) as { field_id: number }[];
      rows.forEach((row, index) => placed.set(row.field_id, index));
    }
    const inAnyLayout = new Set(
      (
        state.db
          .prepare(
            'SELECT DISTINCT lf.field_id AS id FROM layout_fields lf JOIN fields f ON f.id = lf.field_id WHERE f.module_id = ?',
          )
          .all(module.id) as { id: number }[]
      ).map((row) => row.id),
    );
    let rows = fieldsOf(state, module.id).filter((row) => {
      for (const [key, value] of Object.entries(flags)) {
        if (value !== undefined && (row[key as keyof typeof flags] === 1) !== value) return false;
      }
      if (unassociated !== undefined) {
        const associated = layout ? placed.has(row.id) : inAnyLayout.has(row.id);
        if (associated === unassociated) return false;
      } else if (layout && !placed.has(row.id)) return false;
      if (projectId !== undefined && !moduleInProject(module, projectId)) return false;
      if (ids && !ids.has(row.id)) return false;
      if (names && !names.has(row.api_name)) return false;
      if (term !== '' && !`${row.display_name}\n${row.api_name}`.toLowerCase().includes(term))
        return false;
      return true;
    });
    if (layout && unassociated !== true) {
      rows = [...rows].sort((a, b) => (placed.get(a.id) ?? 0) - (placed.get(b.id) ?? 0));
    }
    const { items, page_info } = paginate(rows, page);
    return {
      body: {
        fields: items.map((row) => (withAssociation ? fullFieldView(state, row) : fieldView(row))),
        page_info,
      },
    };
  },
};

function idList(value: unknown, name: string): number[] {
  if (!Array.isArray(value))
    throw apiErrors.invalidParameter(`${name} must be an array of field ids.`);
  return value.map((item, index) => parseId(item, `${name}[${index}]`));
}

function nameList(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw apiErrors.invalidParameter(`${name} must be an array of field api names.`);
  }
  return value as string[];
}

interface PlacementPlan {
  layoutId: number;
  sectionId: number;
  insert: boolean;
  /** Field ids of the target section in their new order. */
  order: number[];
}

/**
 * Where a created or moved field goes: the given layout (default: the module's default layout),
 * the given section (default: where it is, else the layout's first section) and position (default:
 * where it is, else last). Null when nothing moves.
 */
function planPlacement(
  state: EmulatorState,
  module: ModuleRow,
  layout: LayoutRow,
  fieldId: number,
  sectionIdParam: unknown,
  position: Position | undefined,
): PlacementPlan | null {
  const current = state.db
    .prepare('SELECT section_id FROM layout_fields WHERE layout_id = ? AND field_id = ?')
    .get(layout.id, fieldId) as { section_id: number } | undefined;
  let sectionId: number;
  if (sectionIdParam !== undefined && sectionIdParam !== null) {
    sectionId = requireSection(state, layout, sectionIdParam).id;
  } else if (current) {
    sectionId = current.section_id;
  } else {
    const first = sectionsOf(state, layout.id)[0];
    if (!first)
      throw apiErrors.invalidParameter(`Layout ${layout.id} of ${module.api_name} has no section.`);
    sectionId = first.id;
  }
  if (current && current.section_id === sectionId && position === undefined) return null;
  const siblings = (
    state.db
      .prepare(
        'SELECT field_id FROM layout_fields WHERE layout_id = ? AND section_id = ? ORDER BY position, field_id',
      )
      .all(layout.id, sectionId) as { field_id: number }[]
  ).map((row) => row.field_id);
  return {
    layoutId: layout.id,
    sectionId,
    insert: !current,
    order: arrange(siblings, [fieldId], position),
  };
}

function applyPlacement(state: EmulatorState, fieldId: number, plan: PlacementPlan): void {
  if (plan.insert) {
    state.db
      .prepare(
        'INSERT INTO layout_fields (layout_id, field_id, section_id, position) VALUES (?, ?, ?, 0)',
      )
      .run(plan.layoutId, fieldId, plan.sectionId);
  } else {
    state.db
      .prepare('UPDATE layout_fields SET section_id = ? WHERE layout_id = ? AND field_id = ?')
      .run(plan.sectionId, plan.layoutId, fieldId);
  }
  const update = state.db.prepare(
    'UPDATE layout_fields SET position = ? WHERE layout_id = ? AND field_id = ?',
  );
  plan.order.forEach((id, index) => update.run(index + 1, plan.layoutId, id));
}

function refuseTakenDisplayName(
  state: EmulatorState,
  module: ModuleRow,
  name: string,
  exceptId: number | null,
) {
  const clash = state.db
    .prepare(
      'SELECT api_name FROM fields WHERE module_id = ? AND lower(display_name) = lower(?) AND id IS NOT ?',
    )
    .get(module.id, name, exceptId) as { api_name: string } | undefined;
  if (clash) {
    throw apiErrors.invalidParameter(
      `display_name "${name}" is already used by the field ${clash.api_name}.`,
    );
  }
}

/** The layout a placement refers to: layout_id, or the default layout when only section/position are given. */
function targetLayout(
  state: EmulatorState,
  module: ModuleRow,
  body: Record<string, unknown>,
): LayoutRow {
  if (body.layout_id !== undefined && body.layout_id !== null)
    return requireLayout(state, module, body.layout_id);
  const row = defaultLayout(state, module.id);
  if (!row)
    throw apiErrors.invalidParameter(`Module ${module.api_name} has no layout; create one first.`);
  return row;
}

const putField: Route = {
  method: 'PUT',
  template: PREFIX,
  kind: 'api',
  scopes: scope('CREATE'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const body = bodyObject(request);
    const module = bodyModule(state, portal, body);
    const displayName = text(body, 'display_name', FIELD_DISPLAY_NAME_MAX)?.trim();
    if (displayName === '') throw apiErrors.invalidParameter('display_name must not be empty.');
    const fieldType = text(body, 'field_type', FIELD_TYPE_MAX);
    const dataType = text(body, 'data_type', DATA_TYPE_MAX);
    const position = parsePosition(body.position);
    const given = (value: unknown) => value !== undefined && value !== null;
    const placing = given(body.layout_id) || given(body.section_id) || position !== undefined;
    const now = state.nowIso();

    if (body.id === undefined || body.id === null) {
      // Create a custom field.
      if (displayName === undefined) throw apiErrors.invalidParameter('display_name is required.');
      if (fieldType === undefined) throw apiErrors.invalidParameter('field_type is required.');
      if (!isCustomFieldType(fieldType)) {
        throw apiErrors.invalidParameter(
          `field_type must be one of ${CUSTOM_FIELD_TYPE_NAMES.join(', ')}.`,
        );
      }
      const expectedDataType = CUSTOM_FIELD_TYPES[fieldType].dataType;
      if (dataType !== undefined && dataType !== expectedDataType) {
        throw apiErrors.invalidParameter(
          `data_type of a ${fieldType} field is ${expectedDataType}, not ${dataType}.`,
        );
      }
      const property = readFieldProperty(body.field_property, fieldType) ?? {};
      refuseTakenDisplayName(state, module, displayName, null);
      const layout = targetLayout(state, module, body);
      const id = state.nextId();
      const plan = planPlacement(
        state,
        module,
        layout,
        id,
        body.section_id,
        position,
      ) as PlacementPlan;
      const taken = new Set(fieldsOf(state, module.id).map((row) => row.api_name));
      const context = property.context_property as { is_mandatory?: boolean } | undefined;
      state.db.transaction(() => {
        state.db
          .prepare(
            `INSERT INTO fields (id, module_id, api_name, display_name, field_type, data_type, is_default,
               is_mandatory, field_property, created_time) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
          )
          .run(
            id,
            module.id,
            fieldApiName(displayName, taken),
            displayName,
            fieldType,
            expectedDataType,
            context?.is_mandatory ? 1 : 0,
            JSON.stringify(property),
            now,
          );
        applyPlacement(state, id, plan);
      })();
      return {
        status: 201,
        body: { field: fullFieldView(state, requireField(state, module, id)) },
      };
    }

    // Update a field: rename, reconfigure, or place it in a layout.
    const field = requireField(state, module, parseId(body.id, 'id'), 'id');
    if (fieldType !== undefined && fieldType !== field.field_type) {
      throw apiErrors.invalidParameter(
        `field_type cannot change: ${field.api_name} is a ${field.field_type} field.`,
      );
    }
    if (dataType !== undefined && dataType !== field.data_type) {
      throw apiErrors.invalidParameter(
        `data_type cannot change: ${field.api_name} holds ${field.data_type}.`,
      );
    }
    const update = readFieldProperty(body.field_property, field.field_type);
    if (update !== undefined && field.is_default === 1) {
      throw apiErrors.invalidParameter(
        `${field.api_name} is a system field: only its display_name and placement can change.`,
      );
    }
    if (displayName !== undefined) refuseTakenDisplayName(state, module, displayName, field.id);
    const plan = placing
      ? planPlacement(
          state,
          module,
          targetLayout(state, module, body),
          field.id,
          body.section_id,
          position,
        )
      : null;
    if (displayName === undefined && update === undefined && !placing) {
      throw apiErrors.invalidParameter(
        'Nothing to update: give display_name, field_property, layout_id, section_id or position.',
      );
    }
    const property = update
      ? mergeFieldProperty(JSON.parse(field.field_property) as Record<string, unknown>, update)
      : undefined;
    const mandatory = (property?.context_property as { is_mandatory?: boolean } | undefined)
      ?.is_mandatory;
    state.db.transaction(() => {
      state.db
        .prepare(
          'UPDATE fields SET display_name = ?, is_renamed = ?, is_mandatory = ?, field_property = ? WHERE id = ?',
        )
        .run(
          displayName ?? field.display_name,
          displayName !== undefined && displayName !== field.display_name ? 1 : field.is_renamed,
          mandatory === undefined ? field.is_mandatory : mandatory ? 1 : 0,
          property ? JSON.stringify(property) : field.field_property,
          field.id,
        );
      if (plan) applyPlacement(state, field.id, plan);
    })();
    return { body: { field: fullFieldView(state, requireField(state, module, field.id)) } };
  },
};

const deleteField: Route = {
  method: 'DELETE',
  template: `${PREFIX}/{field_id}`,
  kind: 'api',
  scopes: scope('DELETE'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const field = requireField(
      state,
      module,
      parseId(request.params.field_id, 'field_id'),
      'field_id',
    );
    if (field.is_default === 1)
      throw apiErrors.invalidParameter(
        `${field.api_name} is a system field and cannot be deleted.`,
      );
    state.db.transaction(() => {
      // Records lose the value too (trashed ones included), so a new field of that name starts empty.
      const path = `$."${field.api_name}"`;
      state.db
        .prepare(
          'UPDATE entities SET custom = json_remove(custom, ?) WHERE module_id = ? AND json_type(custom, ?) IS NOT NULL',
        )
        .run(path, module.id, path);
      state.db.prepare('DELETE FROM fields WHERE id = ?').run(field.id);
    })();
    return { status: 204 };
  },
};

const associatedLayouts: Route = {
  method: 'GET',
  template: `${PREFIX}/{field_id}/associated-layouts`,
  kind: 'api',
  scopes: scope('READ'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const field = requireField(
      state,
      module,
      parseId(request.params.field_id, 'field_id'),
      'field_id',
    );
    const page = readPage(request.query);
    const filter = queryJson(request.query, 'filter') ?? {};
    const ignore = new Set(idObjects(filter.ignore, 'filter.ignore'));
    const term = filterText(filter, 'search_term')?.trim().toLowerCase() ?? '';
    const rows = placements(state, field.id).filter(
      (row) => !ignore.has(row.layout_id) && row.layout_name.toLowerCase().includes(term),
    );
    const { items, page_info } = paginate(rows, page);
    return { body: { layouts: items.map(placementView), page_info } };
  },
};

export const fieldRoutes: Route[] = [listFields, putField, deleteField, associatedLayouts];
