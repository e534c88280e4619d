/**
 * Module settings (spec "Module settings"): list, read, create, update, activate/deactivate,
 * trash, recover, permanent removal, the fields of a module and its fields configuration. The
 * five built-in modules (projects, phases, tasklists, tasks, issues) cannot be renamed,
 * deactivated or deleted.
 */
import { apiErrors } from '../http/apiError';
import type { ApiRequest, Route } from '../http/types';
import type { EmulatorState } from '../state';
import { moduleApiName } from '../settings/apiNames';
import { MODULE_NAME_MAX } from '../settings/limits';
import {
  checkScopePath,
  fieldsOf,
  filterBool,
  layoutsOf,
  portalProjects,
  queryModule,
  readIndexRange,
  statusesOf,
} from '../settings/lookups';
import { createModule } from '../settings/moduleFactory';
import { readModuleProperty, readProjects } from '../settings/moduleInput';
import { fieldView, layoutView, moduleView, statusView } from '../settings/views';
import {
  bodyObject,
  bool,
  paginate,
  queryJson,
  readPage,
  requireModule,
  requirePortal,
  text,
  type ModuleRow,
  type PortalRow,
} from './common';

const PREFIX = '/api/v3/portal/{portal_id}';
const READ = ['PMS.custom_fields.READ'];
const CREATE = ['PMS.custom_fields.CREATE'];
const UPDATE = ['PMS.custom_fields.UPDATE'];

/** Ours: a module created without an icon gets this one. */
const DEFAULT_ICON_CLASS = 'icon-module';

function moduleParam(
  state: EmulatorState,
  portal: PortalRow,
  request: ApiRequest,
  trashed = false,
) {
  return requireModule(state, portal.id, request.params.module_api_name, {
    includeTrashed: trashed,
    parameter: 'module_api_name',
  });
}

function reload(state: EmulatorState, id: number): ModuleRow {
  return state.db.prepare('SELECT * FROM modules WHERE id = ?').get(id) as ModuleRow;
}

function refuseBuiltIn(module: ModuleRow, action: string): void {
  if (module.is_default === 1) {
    throw apiErrors.invalidParameter(
      `${module.api_name} is a built-in module and cannot be ${action}.`,
    );
  }
}

/** Names are unique (case-insensitively) among the portal's modules that are not in the trash. */
function refuseTakenNames(
  state: EmulatorState,
  portal: PortalRow,
  names: { singular?: string; plural?: string },
  exceptId: number | null,
): void {
  const rows = state.db
    .prepare(
      'SELECT id, singular_name, plural_name FROM modules WHERE portal_id = ? AND trashed_time IS NULL',
    )
    .all(portal.id) as { id: number; singular_name: string; plural_name: string }[];
  for (const [key, value] of Object.entries(names)) {
    if (value === undefined) continue;
    const lower = value.trim().toLowerCase();
    const clash = rows.find(
      (row) =>
        row.id !== exceptId &&
        (row.singular_name.toLowerCase() === lower || row.plural_name.toLowerCase() === lower),
    );
    if (clash) {
      throw apiErrors.invalidParameter(`${key}_name "${value}" is already used by another module.`);
    }
  }
}

const listModules: Route = {
  method: 'GET',
  template: `${PREFIX}/settings/modules`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const page = readPage(request.query, true);
    readIndexRange(request.query, false);
    const filter = queryJson(request.query, 'filter') ?? {};
    const wanted = {
      is_customized: filterBool(filter, 'is_customized'),
      is_default: filterBool(filter, 'is_default'),
      is_web_tab: filterBool(filter, 'is_web_tab'),
    };
    const rows = (
      state.db
        .prepare('SELECT * FROM modules WHERE portal_id = ? AND trashed_time IS NULL ORDER BY id')
        .all(portal.id) as ModuleRow[]
    ).filter((row) =>
      Object.entries(wanted).every(
        ([key, value]) => value === undefined || (row[key as keyof typeof wanted] === 1) === value,
      ),
    );
    const { items, page_info } = paginate(rows, page);
    return { body: { modules: items.map((row) => moduleView(state, row)), page_info } };
  },
};

const getModule: Route = {
  method: 'GET',
  template: `${PREFIX}/settings/modules/{module_api_name}`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    return { body: { module: moduleView(state, moduleParam(state, portal, request)) } };
  },
};

const createModuleRoute: Route = {
  method: 'POST',
  template: `${PREFIX}/settings/modules`,
  kind: 'api',
  scopes: CREATE,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const body = bodyObject(request);
    const singular = text(body, 'singular_name', MODULE_NAME_MAX, true) as string;
    const plural = text(body, 'plural_name', MODULE_NAME_MAX, true) as string;
    const icon = text(body, 'icon_class', MODULE_NAME_MAX);
    const isGlobal = bool(body, 'is_global_module');
    const isAllProjects = bool(body, 'is_all_projects');
    const isOverview = bool(body, 'is_overview_needed');
    const projects = readProjects(body.projects, portalProjects(state, portal.id));
    const property = readModuleProperty(body.module_property);
    refuseTakenNames(state, portal, { singular, plural }, null);

    const taken = new Set(
      (
        state.db.prepare('SELECT api_name FROM modules WHERE portal_id = ?').all(portal.id) as {
          api_name: string;
        }[]
      ).map((row) => row.api_name),
    );
    const id = state.db.transaction(() =>
      createModule(state, portal.id, {
        apiName: moduleApiName(plural, taken),
        singularName: singular.trim(),
        pluralName: plural.trim(),
        iconClass: icon ?? DEFAULT_ICON_CLASS,
        isGlobalModule: isGlobal ?? false,
        // Without a project list the module is on in every project.
        isAllProjects: isAllProjects ?? (projects === undefined || projects.length === 0),
        isOverviewNeeded: isOverview ?? false,
        defaultLayoutType: property?.defaultLayoutType ?? 'public',
        projects: projects ?? [],
      }),
    )();
    return { status: 201, body: { module: moduleView(state, reload(state, id)) } };
  },
};

const updateModule: Route = {
  method: 'PATCH',
  template: `${PREFIX}/settings/modules/{module_api_name}`,
  kind: 'api',
  scopes: UPDATE,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = moduleParam(state, portal, request);
    const body = bodyObject(request);
    const singular = text(body, 'singular_name', MODULE_NAME_MAX);
    const plural = text(body, 'plural_name', MODULE_NAME_MAX);
    const icon = text(body, 'icon_class', MODULE_NAME_MAX);
    const isAllProjects = bool(body, 'is_all_projects');
    const isOverview = bool(body, 'is_overview_needed');
    const property = readModuleProperty(body.module_property);
    const projects = readProjects(body.projects, portalProjects(state, portal.id));
    if (body.is_global_module !== undefined) {
      throw apiErrors.invalidParameter(
        'is_global_module is set when a module is created and cannot change.',
      );
    }
    for (const [name, value] of [
      ['singular_name', singular],
      ['plural_name', plural],
    ] as const) {
      if (value !== undefined && value.trim() === '')
        throw apiErrors.invalidParameter(`${name} must not be empty.`);
    }
    if (singular !== undefined || plural !== undefined) refuseBuiltIn(module, 'renamed');
    const changes = [singular, plural, icon, isAllProjects, isOverview, property, projects];
    if (changes.every((value) => value === undefined)) {
      throw apiErrors.invalidParameter(
        'Nothing to update: give singular_name, plural_name, icon_class, is_all_projects, is_overview_needed, module_property or projects.',
      );
    }
    refuseTakenNames(state, portal, { singular, plural }, module.id);

    state.db.transaction(() => {
      state.db
        .prepare(
          `UPDATE modules SET singular_name = ?, plural_name = ?, icon_class = ?, is_all_projects = ?,
             is_overview_needed = ?, default_layout_type = ?, projects = ? WHERE id = ?`,
        )
        .run(
          singular?.trim() ?? module.singular_name,
          plural?.trim() ?? module.plural_name,
          icon ?? module.icon_class,
          isAllProjects === undefined ? module.is_all_projects : isAllProjects ? 1 : 0,
          isOverview === undefined ? module.is_overview_needed : isOverview ? 1 : 0,
          property?.defaultLayoutType ?? module.default_layout_type,
          projects === undefined ? module.projects : JSON.stringify(projects),
          module.id,
        );
    })();
    return { body: { module: moduleView(state, reload(state, module.id)) } };
  },
};

/** Activate and deactivate are idempotent: the module in the wanted state is returned as is. */
function setActive(target: 'active' | 'deactivated'): Route {
  return {
    method: 'PATCH',
    template: `${PREFIX}/settings/modules/{module_api_name}/${target === 'active' ? 'activate' : 'deactivate'}`,
    kind: 'api',
    scopes: UPDATE,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const module = moduleParam(state, portal, request);
      if (target === 'deactivated') refuseBuiltIn(module, 'deactivated');
      state.db.transaction(() => {
        state.db.prepare('UPDATE modules SET state = ? WHERE id = ?').run(target, module.id);
      })();
      return { body: { module: moduleView(state, reload(state, module.id)) } };
    },
  };
}

const trashModule: Route = {
  method: 'DELETE',
  template: `${PREFIX}/settings/modules/{module_api_name}`,
  kind: 'api',
  // The spec's table lists READ for the three trash operations; honoured as written.
  scopes: READ,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = moduleParam(state, portal, request);
    refuseBuiltIn(module, 'deleted');
    state.db.transaction(() => {
      state.db
        .prepare('UPDATE modules SET trashed_time = ? WHERE id = ?')
        .run(state.nowIso(), module.id);
    })();
    return { status: 204 };
  },
};

function requireTrashed(state: EmulatorState, portal: PortalRow, request: ApiRequest): ModuleRow {
  const module = moduleParam(state, portal, request, true);
  if (module.trashed_time === null) {
    throw apiErrors.invalidParameter(
      `Module ${module.api_name} is not in the trash; DELETE settings/modules/${module.api_name} first.`,
    );
  }
  return module;
}

const deleteFromBin: Route = {
  method: 'DELETE',
  template: `${PREFIX}/settings/modules/bin/{module_api_name}`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = requireTrashed(state, portal, request);
    state.db.transaction(() => {
      // Records first: they point at the module's layouts and statuses without cascading.
      state.db.prepare('DELETE FROM entities WHERE module_id = ?').run(module.id);
      state.db.prepare('DELETE FROM modules WHERE id = ?').run(module.id);
    })();
    return { status: 204 };
  },
};

const recoverModule: Route = {
  method: 'POST',
  template: `${PREFIX}/settings/modules/bin/{module_api_name}/recover`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = requireTrashed(state, portal, request);
    state.db.transaction(() => {
      state.db.prepare('UPDATE modules SET trashed_time = NULL WHERE id = ?').run(module.id);
    })();
    return { body: { module: moduleView(state, reload(state, module.id)) } };
  },
};

const fieldsConfiguration: Route = {
  method: 'GET',
  template: `${PREFIX}/settings/fields-configuration`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    return {
      body: {
        module: { id: String(module.id), api_name: module.api_name },
        layouts: layoutsOf(state, module.id).map((layout) =>
          layoutView(state, module, layout, true),
        ),
        fields: fieldsOf(state, module.id).map(fieldView),
        statuses: statusesOf(state, module.id).map((status) => statusView(state, status)),
      },
    };
  },
};

const moduleFields: Route = {
  method: 'GET',
  // The spec writes {module_id}; the name matches the record routes' {module_api_name} segment
  // (one router node), and the value is an api name or an id either way.
  template: `${PREFIX}/{scope_path}/{module_api_name}/fields`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = requireModule(state, portal.id, request.params.module_api_name, {
      parameter: 'module_id',
    });
    checkScopePath(state, portal, request.params.scope_path, module);
    return { body: { fields: fieldsOf(state, module.id).map(fieldView) } };
  },
};

export const moduleRoutes: Route[] = [
  listModules,
  getModule,
  createModuleRoute,
  updateModule,
  setActive('active'),
  setActive('deactivated'),
  trashModule,
  deleteFromBin,
  recoverModule,
  fieldsConfiguration,
  moduleFields,
];
