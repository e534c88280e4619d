/**
 * Layouts and sections (spec "Layouts and sections"). A layout arranges the module's fields in
 * sections; records name the layout they were made with. The default layout cannot be deleted,
 * nor a layout that records use; the last section of a layout cannot be deleted.
 */
import { apiErrors } from '../http/apiError';
import type { ApiRequest, Route } from '../http/types';
import type { EmulatorState } from '../state';
import { LAYOUT_NAME_MAX, SECTION_NAME_MAX } from '../settings/limits';
import {
  bodyModule,
  defaultLayout,
  filterBool,
  filterText,
  idObjects,
  moduleInProject,
  portalProjects,
  queryModule,
  renumber,
  requireLayout,
  requireSection,
  sectionsOf,
  type LayoutRow,
} from '../settings/lookups';
import { createLayout } from '../settings/moduleFactory';
import { arrange, parsePosition } from '../settings/position';
import { layoutView, sectionView } from '../settings/views';
import {
  bodyObject,
  bool,
  idString,
  paginate,
  parseId,
  queryBool,
  queryJson,
  readPage,
  requirePortal,
  text,
  type ModuleRow,
  type PortalRow,
} from './common';

const PREFIX = '/api/v3/portal/{portal_id}/settings/layouts';
const scope = (op: 'READ' | 'CREATE' | 'UPDATE' | 'DELETE') => [`PMS.custom_fields.${op}`];

/** "segment matches [a-zA-Z0-9_]+". */
const FIELD_API_NAME_SEGMENT = /^[a-zA-Z0-9_]+$/;
/** Ours: what `filter.search_by` may name; `name` (the default) matches a part, `type` exactly. */
const SEARCH_BY = ['name', 'type'] as const;

function layoutType(body: Record<string, unknown>): 'public' | 'private' | undefined {
  const type = body.type;
  if (type === undefined || type === null) return undefined;
  if (type !== 'public' && type !== 'private') {
    throw apiErrors.invalidParameter('type must be public or private.');
  }
  return type;
}

function refuseTakenLayoutName(
  state: EmulatorState,
  module: ModuleRow,
  name: string,
  exceptId: number | null,
) {
  const clash = state.db
    .prepare(
      'SELECT id FROM layouts WHERE module_id = ? AND lower(name) = lower(?) AND id IS NOT ?',
    )
    .get(module.id, name.trim(), exceptId);
  if (clash)
    throw apiErrors.invalidParameter(
      `name "${name}" is already used by another layout of ${module.api_name}.`,
    );
}

/**
 * Ours: a public layout is associated with every profile, a private one with the administrator
 * profile only (portal owner or an admin user); the spec keeps profiles out of its resources.
 */
function callerIsAdministrator(
  state: EmulatorState,
  portal: PortalRow,
  request: ApiRequest,
): boolean {
  const zpuid = request.caller?.zpuid ?? '';
  if (zpuid === portal.owner_zpuid) return true;
  const row = state.db.prepare('SELECT role FROM users WHERE zpuid = ?').get(zpuid) as
    { role: string } | undefined;
  return row?.role === 'admin';
}

function recordCounts(state: EmulatorState, layoutId: number) {
  return state.db
    .prepare(
      `SELECT COUNT(*) AS records, COUNT(DISTINCT project_id) AS projects
       FROM entities WHERE layout_id = ? AND trashed_time IS NULL`,
    )
    .get(layoutId) as { records: number; projects: number };
}

const listLayouts: Route = {
  method: 'GET',
  template: PREFIX,
  kind: 'api',
  scopes: scope('READ'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const page = readPage(request.query, true);
    const filter = queryJson(request.query, 'filter') ?? {};
    const withAssociation = filterBool(filter, 'is_association_info_needed') ?? false;
    const profileAssociated = filterBool(filter, 'is_current_user_profile_associated');
    const term = filterText(filter, 'search_term')?.trim().toLowerCase() ?? '';
    const searchBy = filterText(filter, 'search_by') ?? 'name';
    if (!(SEARCH_BY as readonly string[]).includes(searchBy)) {
      throw apiErrors.invalidParameter(`filter.search_by must be one of ${SEARCH_BY.join(', ')}.`);
    }
    const admin = callerIsAdministrator(state, portal, request);
    const rows = (
      state.db
        .prepare('SELECT * FROM layouts WHERE module_id = ? ORDER BY is_default DESC, id')
        .all(module.id) as LayoutRow[]
    ).filter((row) => {
      if (profileAssociated !== undefined && (row.type === 'public' || admin) !== profileAssociated)
        return false;
      if (term === '') return true;
      return searchBy === 'type' ? row.type === term : row.name.toLowerCase().includes(term);
    });
    const { items, page_info } = paginate(rows, page);
    return {
      body: {
        layouts: items.map((row) => {
          const view = layoutView(state, module, row, false);
          if (!withAssociation) return view;
          const counts = recordCounts(state, row.id);
          return {
            ...view,
            association_info: {
              is_current_user_profile_associated: row.type === 'public' || admin,
              record_count: counts.records,
              project_count: counts.projects,
            },
          };
        }),
        page_info,
      },
    };
  },
};

const getDefaultLayout: Route = {
  method: 'GET',
  template: `${PREFIX}/default-layout`,
  kind: 'api',
  scopes: scope('READ'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const row = defaultLayout(state, module.id);
    if (!row) throw apiErrors.notFound(`A default layout of module ${module.api_name}`);
    return { body: { layout: layoutView(state, module, row, true) } };
  },
};

const getLayout: Route = {
  method: 'GET',
  template: `${PREFIX}/{layout_id}`,
  kind: 'api',
  scopes: scope('READ'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const row = requireLayout(state, module, request.params.layout_id);
    return { body: { layout: layoutView(state, module, row, true) } };
  },
};

const createLayoutRoute: Route = {
  method: 'POST',
  template: PREFIX,
  kind: 'api',
  scopes: scope('CREATE'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const body = bodyObject(request);
    const module = bodyModule(state, portal, body);
    const name = (text(body, 'name', LAYOUT_NAME_MAX, true) as string).trim();
    const type = layoutType(body) ?? module.default_layout_type;
    let reference: LayoutRow | undefined;
    if (body.reference !== undefined && body.reference !== null) {
      if (typeof body.reference !== 'object' || Array.isArray(body.reference)) {
        throw apiErrors.invalidParameter('reference must be an object {id}.');
      }
      reference = requireLayout(
        state,
        module,
        (body.reference as { id?: unknown }).id,
        'reference.id',
      );
    }
    refuseTakenLayoutName(state, module, name, null);
    const id = state.db.transaction(() =>
      createLayout(state, module, {
        name,
        type: type as 'public' | 'private',
        // A module's first layout is its default one.
        isDefault: defaultLayout(state, module.id) === undefined,
        reference,
      }),
    )();
    const row = requireLayout(state, module, id);
    return { status: 201, body: { layout: layoutView(state, module, row, true) } };
  },
};

/** Ours: the body is `{module, name?, type?, is_default?: true}` (the spec does not show it). */
const updateLayout: Route = {
  method: 'PATCH',
  template: `${PREFIX}/{layout_id}`,
  kind: 'api',
  scopes: scope('UPDATE'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const body = bodyObject(request);
    const module = bodyModule(state, portal, body);
    const layout = requireLayout(state, module, request.params.layout_id);
    const name = text(body, 'name', LAYOUT_NAME_MAX)?.trim();
    if (name === '') throw apiErrors.invalidParameter('name must not be empty.');
    const type = layoutType(body);
    const makeDefault = bool(body, 'is_default');
    if (makeDefault === false) {
      throw apiErrors.invalidParameter(
        'is_default can only be set to true; make another layout the default instead.',
      );
    }
    if (name === undefined && type === undefined && makeDefault === undefined) {
      throw apiErrors.invalidParameter('Nothing to update: give name, type or is_default.');
    }
    if (name !== undefined) refuseTakenLayoutName(state, module, name, layout.id);
    state.db.transaction(() => {
      state.db
        .prepare('UPDATE layouts SET name = ?, type = ? WHERE id = ?')
        .run(name ?? layout.name, type ?? layout.type, layout.id);
      if (makeDefault) {
        state.db
          .prepare('UPDATE layouts SET is_default = (id = ?) WHERE module_id = ?')
          .run(layout.id, module.id);
      }
    })();
    return {
      body: { layout: layoutView(state, module, requireLayout(state, module, layout.id), true) },
    };
  },
};

const deleteLayout: Route = {
  method: 'DELETE',
  template: `${PREFIX}/{layout_id}`,
  kind: 'api',
  scopes: scope('DELETE'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const layout = requireLayout(state, module, request.params.layout_id);
    if (layout.is_default === 1) {
      throw apiErrors.invalidParameter(
        `Layout ${layout.id} is the default layout of ${module.api_name}; make another layout the default first.`,
      );
    }
    const used = state.db
      .prepare('SELECT COUNT(*) AS n FROM entities WHERE layout_id = ?')
      .get(layout.id) as { n: number };
    if (used.n > 0) {
      throw apiErrors.invalidParameter(
        `Layout ${layout.id} is used by ${used.n} records (the trash included); move or delete them first.`,
      );
    }
    state.db.transaction(() => {
      state.db.prepare('DELETE FROM layouts WHERE id = ?').run(layout.id);
    })();
    return { status: 204 };
  },
};

const removeFieldFromLayout: Route = {
  method: 'DELETE',
  template: `${PREFIX}/{layout_id}/fields/{field_api_name}`,
  kind: 'api',
  scopes: scope('DELETE'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const apiName = request.params.field_api_name ?? '';
    if (!FIELD_API_NAME_SEGMENT.test(apiName)) {
      throw apiErrors.invalidParameter(
        `field_api_name must match [a-zA-Z0-9_]+, not "${apiName}".`,
      );
    }
    const module = queryModule(state, portal, request);
    const layout = requireLayout(state, module, request.params.layout_id);
    const field = state.db
      .prepare(
        `SELECT f.id, f.is_default FROM fields f JOIN layout_fields lf ON lf.field_id = f.id
         WHERE f.module_id = ? AND f.api_name = ? AND lf.layout_id = ?`,
      )
      .get(module.id, apiName, layout.id) as { id: number; is_default: number } | undefined;
    if (!field) throw apiErrors.notFound(`Field ${apiName} in layout ${layout.id}`);
    if (field.is_default === 1) {
      throw apiErrors.invalidParameter(
        `${apiName} is a system field and cannot be removed from a layout.`,
      );
    }
    // Records keep their values: putting the field back shows them again.
    state.db.transaction(() => {
      state.db
        .prepare('DELETE FROM layout_fields WHERE layout_id = ? AND field_id = ?')
        .run(layout.id, field.id);
    })();
    return { status: 204 };
  },
};

/**
 * Ours: a layout's "associated entities" are projects. Associated: the distinct projects of the
 * layout's records (not in the trash); unassociated: the other projects the module is on in.
 */
const associatedEntities: Route = {
  method: 'GET',
  template: `${PREFIX}/{layout_id}/associated-entities`,
  kind: 'api',
  scopes: scope('READ'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const layout = requireLayout(state, module, request.params.layout_id);
    const flag = request.query.get('is_unassociated');
    if (flag === null) throw apiErrors.invalidParameter('is_unassociated is required.');
    const unassociated = queryBool(flag, 'is_unassociated') as boolean;
    const term = request.query.get('search_term');
    // Required, but may be empty: an empty term matches everything.
    if (term === null)
      throw apiErrors.invalidParameter('search_term is required (it may be empty).');
    const page = readPage(request.query);
    const filter = queryJson(request.query, 'filter') ?? {};
    const ignore = new Set(idObjects(filter.ignore, 'filter.ignore'));

    const projects = portalProjects(state, portal.id);
    const used = new Set(
      (
        state.db
          .prepare(
            'SELECT DISTINCT project_id AS id FROM entities WHERE layout_id = ? AND trashed_time IS NULL AND project_id IS NOT NULL',
          )
          .all(layout.id) as { id: number }[]
      ).map((row) => row.id),
    );
    const lower = term.trim().toLowerCase();
    const rows = [...projects]
      .filter(([id]) =>
        unassociated ? !used.has(id) && moduleInProject(module, id) : used.has(id),
      )
      .filter(([id, name]) => !ignore.has(id) && name.toLowerCase().includes(lower))
      .sort((a, b) => a[1].localeCompare(b[1]) || a[0] - b[0]);
    const { items, page_info } = paginate(rows, page);
    return {
      body: {
        entities: items.map(([id, name]) => ({ id: idString(id), name, type: 'project' })),
        page_info,
      },
    };
  },
};

/** A section PUT: `id` updates that section, no id adds one. */
const putSection: Route = {
  method: 'PUT',
  template: `${PREFIX}/{layout_id}/sections`,
  kind: 'api',
  scopes: scope('CREATE'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const body = bodyObject(request);
    const module = bodyModule(state, portal, body);
    const layout = requireLayout(state, module, request.params.layout_id);
    const name = (text(body, 'name', SECTION_NAME_MAX, true) as string).trim();
    const position = parsePosition(body.position);
    const existing =
      body.id === undefined || body.id === null
        ? undefined
        : requireSection(state, layout, body.id, 'id');
    const siblings = sectionsOf(state, layout.id);
    const clash = siblings.find(
      (section) => section.id !== existing?.id && section.name.toLowerCase() === name.toLowerCase(),
    );
    if (clash)
      throw apiErrors.invalidParameter(
        `name "${name}" is already used by another section of this layout.`,
      );
    const sectionId = existing?.id ?? state.nextId();
    const order =
      existing && position === undefined
        ? siblings.map((section) => section.id)
        : arrange(
            siblings.map((section) => section.id),
            [sectionId],
            position,
          );

    state.db.transaction(() => {
      if (existing) {
        state.db.prepare('UPDATE sections SET name = ? WHERE id = ?').run(name, sectionId);
      } else {
        state.db
          .prepare('INSERT INTO sections (id, layout_id, name, position) VALUES (?, ?, ?, 0)')
          .run(sectionId, layout.id, name);
      }
      renumber(state, 'UPDATE sections SET position = ? WHERE id = ?', order);
    })();
    const row = requireSection(state, layout, sectionId);
    return {
      status: existing ? 200 : 201,
      body: { section: sectionView(state, layout.id, row, order.indexOf(sectionId) + 1) },
    };
  },
};

/** Ours: the section's fields move to the end of the section before it (or the next, if first). */
const deleteSection: Route = {
  method: 'DELETE',
  template: `${PREFIX}/{layout_id}/sections/{section_id}`,
  kind: 'api',
  scopes: scope('DELETE'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const layout = requireLayout(state, module, request.params.layout_id);
    const section = requireSection(state, layout, parseId(request.params.section_id, 'section_id'));
    const siblings = sectionsOf(state, layout.id);
    if (siblings.length === 1) {
      throw apiErrors.invalidParameter(
        `Section ${section.id} is the last section of layout ${layout.id}.`,
      );
    }
    const index = siblings.findIndex((row) => row.id === section.id);
    const heir = siblings[index === 0 ? 1 : index - 1]!;
    state.db.transaction(() => {
      const moved = state.db
        .prepare(
          'SELECT field_id FROM layout_fields WHERE layout_id = ? AND section_id = ? ORDER BY position',
        )
        .all(layout.id, section.id) as { field_id: number }[];
      const last = state.db
        .prepare(
          'SELECT COALESCE(MAX(position), 0) AS p FROM layout_fields WHERE layout_id = ? AND section_id = ?',
        )
        .get(layout.id, heir.id) as { p: number };
      const move = state.db.prepare(
        'UPDATE layout_fields SET section_id = ?, position = ? WHERE layout_id = ? AND field_id = ?',
      );
      moved.forEach((row, i) => move.run(heir.id, last.p + i + 1, layout.id, row.field_id));
      state.db.prepare('DELETE FROM sections WHERE id = ?').run(section.id);
      renumber(
        state,
        'UPDATE sections SET position = ? WHERE id = ?',
        siblings.filter((row) => row.id !== section.id).map((row) => row.id),
      );
    })();
    return { status: 204 };
  },
};

export const layoutRoutes: Route[] = [
  listLayouts,
  getDefaultLayout,
  getLayout,
  createLayoutRoute,
  updateLayout,
  deleteLayout,
  removeFieldFromLayout,
  associatedEntities,
  putSection,
  deleteSection,
];
