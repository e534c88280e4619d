/**
 * Lookups shared by the settings routes: layouts, sections, fields, statuses and projects of a
 * module, each scoped to its parent so an id from another module or portal is "not found".
 */
import { apiErrors } from '../http/apiError';
import type { ApiRequest } from '../http/types';
import { parseId, requireModule, text, type ModuleRow, type PortalRow } from '../api/common';
import type { EmulatorState } from '../state';
import { MODULE_PARAM_MAX } from './limits';

export interface LayoutRow {
  id: number;
  module_id: number;
  name: string;
  type: 'public' | 'private';
  reference_id: number | null;
  is_default: number;
  created_time: string;
}

export interface SectionRow {
  id: number;
  layout_id: number;
  name: string;
  position: number;
}

export interface FieldRow {
  id: number;
  module_id: number;
  api_name: string;
  display_name: string;
  field_type: string;
  data_type: string;
  is_default: number;
  is_mandatory: number;
  is_renamed: number;
  is_formula_based_list: number;
  field_property: string;
  created_time: string;
}

export interface StatusRow {
  id: number;
  module_id: number;
  layout_id: number | null;
  name: string;
  color: string;
  is_closed_type: number;
  is_default: number;
  position: number;
}

/** The `module` query parameter (required on every settings read). */
export function queryModule(
  state: EmulatorState,
  portal: PortalRow,
  request: ApiRequest,
): ModuleRow {
  return requireModule(state, portal.id, request.query.get('module'));
}

/** The `module` body member: "module (string, req, max 100)". */
export function bodyModule(
  state: EmulatorState,
  portal: PortalRow,
  body: Record<string, unknown>,
): ModuleRow {
  const name = text(body, 'module', MODULE_PARAM_MAX, true) as string;
  return requireModule(state, portal.id, name);
}

export function requireLayout(
  state: EmulatorState,
  module: ModuleRow,
  id: unknown,
  name = 'layout_id',
): LayoutRow {
  const layoutId = parseId(id, name);
  const row = state.db
    .prepare('SELECT * FROM layouts WHERE id = ? AND module_id = ?')
    .get(layoutId, module.id) as LayoutRow | undefined;
  if (!row) throw apiErrors.notFound(`Layout ${layoutId} of module ${module.api_name}`);
  return row;
}

export function layoutsOf(state: EmulatorState, moduleId: number): LayoutRow[] {
  return state.db
    .prepare('SELECT * FROM layouts WHERE module_id = ? ORDER BY is_default DESC, id')
    .all(moduleId) as LayoutRow[];
}

export function defaultLayout(state: EmulatorState, moduleId: number): LayoutRow | undefined {
  return state.db
    .prepare('SELECT * FROM layouts WHERE module_id = ? AND is_default = 1')
    .get(moduleId) as LayoutRow | undefined;
}

export function sectionsOf(state: EmulatorState, layoutId: number): SectionRow[] {
  return state.db
    .prepare('SELECT * FROM sections WHERE layout_id = ? ORDER BY position, id')
    .all(layoutId) as SectionRow[];
}

export function requireSection(
  state: EmulatorState,
  layout: LayoutRow,
  id: unknown,
  name = 'section_id',
): SectionRow {
  const sectionId = parseId(id, name);
  const row = state.db
    .prepare('SELECT * FROM sections WHERE id = ? AND layout_id = ?')
    .get(sectionId, layout.id) as SectionRow | undefined;
  if (!row) throw apiErrors.notFound(`Section ${sectionId} of layout ${layout.id}`);
  return row;
}

/** A field by id or api name ("field (req, name or id)"). */
export function requireField(
  state: EmulatorState,
  module: ModuleRow,
  idOrName: unknown,
  name = 'field',
): FieldRow {
  if (idOrName === undefined || idOrName === null || idOrName === '') {
    throw apiErrors.invalidParameter(`${name} is required.`);
  }
  if (typeof idOrName !== 'string' && typeof idOrName !== 'number') {
    throw apiErrors.invalidParameter(`${name} must be a field id or api name.`);
  }
  const key = String(idOrName);
  const row = state.db
    .prepare('SELECT * FROM fields WHERE module_id = ? AND (api_name = ? OR CAST(id AS TEXT) = ?)')
    .get(module.id, key, key) as FieldRow | undefined;
  if (!row) throw apiErrors.notFound(`Field ${key} of module ${module.api_name}`);
  return row;
}

export function fieldsOf(state: EmulatorState, moduleId: number): FieldRow[] {
  return state.db
    .prepare('SELECT * FROM fields WHERE module_id = ? ORDER BY is_default DESC, id')
    .all(moduleId) as FieldRow[];
}

export function statusesOf(state: EmulatorState, moduleId: number): StatusRow[] {
  return state.db
    .prepare('SELECT * FROM statuses WHERE module_id = ? ORDER BY position, id')
    .all(moduleId) as StatusRow[];
}

/** Ids of the portal's projects that are not in the trash. */
export function portalProjects(state: EmulatorState, portalId: number): Map<number, string> {
  const rows = state.db
    .prepare(
      `SELECT id, name FROM work_items
       WHERE portal_id = ? AND module = 'projects' AND trashed_time IS NULL`,
    )
    .all(portalId) as { id: number; name: string }[];
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Whether a module is switched on in a project ("is_all_projects", or selected in `projects`). */
export function moduleInProject(module: ModuleRow, projectId: number): boolean {
  if (module.is_all_projects) return true;
  const projects = JSON.parse(module.projects) as {
    project: { id: string };
    is_selected: boolean;
  }[];
  return projects.some((item) => item.is_selected && Number(item.project.id) === projectId);
}

/**
 * `{scope_path}`: "either the literal projects or a numeric id" (a project of the portal). A
 * project the module is not switched on in does not have the module.
 */
export function checkScopePath(
  state: EmulatorState,
  portal: PortalRow,
  scopePath: string | undefined,
  module: ModuleRow,
): void {
  if (scopePath === 'projects') return;
  if (!scopePath || !/^\d+$/.test(scopePath)) {
    throw apiErrors.invalidParameter(
      `scope_path must be projects or a project id, not ${JSON.stringify(scopePath ?? '')}.`,
    );
  }
  const projectId = parseId(scopePath, 'scope_path');
  if (!portalProjects(state, portal.id).has(projectId)) {
    throw apiErrors.notFound(`Project ${projectId}`);
  }
  if (!moduleInProject(module, projectId)) {
    throw apiErrors.notFound(`Module ${module.api_name} in project ${projectId}`);
  }
}

/** An optional integer query parameter within bounds. */
export function queryInt(
  query: URLSearchParams,
  name: string,
  { min, max, required = false }: { min: number; max?: number; required?: boolean },
): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') {
    if (required) throw apiErrors.invalidParameter(`${name} is required.`);
    return undefined;
  }
  if (!/^-?\d+$/.test(value)) {
    throw apiErrors.invalidParameter(`${name} must be an integer, not "${value}".`);
  }
  const number = Number(value);
  if (number < min || (max !== undefined && number > max)) {
    throw apiErrors.invalidParameter(
      `${name} must be from ${min}${max === undefined ? '' : ` to ${max}`}, not ${number}.`,
    );
  }
  return number;
}

/**
 * `index` and `range` (v2's offset paging) are accepted and checked but page/per_page decide the
 * page: v3 "replaced" index + range, and both are required together on some reads.
 */
export function readIndexRange(query: URLSearchParams, required: boolean): void {
  queryInt(query, 'index', { min: 0, required });
  queryInt(query, 'range', { min: 1, max: 200, required });
}

/** An array of `{id}` objects (filter.ignore, bodies' `statuses: [{id}]`, ...). */
export function idObjects(value: unknown, name: string): number[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw apiErrors.invalidParameter(`${name} must be an array of {id}.`);
  return value.map((item, index) => {
    if (typeof item !== 'object' || item === null) {
      throw apiErrors.invalidParameter(`${name}[${index}] must be an object with an id.`);
    }
    return parseId((item as { id?: unknown }).id, `${name}[${index}].id`);
  });
}

/** A boolean from a JSON filter: true/false or the strings "true"/"false". */
export function filterBool(filter: Record<string, unknown>, name: string): boolean | undefined {
  const value = filter[name];
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw apiErrors.invalidParameter(`filter.${name} must be true or false.`);
}

/** A string from a JSON filter. */
export function filterText(filter: Record<string, unknown>, name: string): string | undefined {
  const value = filter[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw apiErrors.invalidParameter(`filter.${name} must be a string.`);
  return value;
}

/** Renumbers rows 1..n in the given order (positions are ranks among siblings). */
export function renumber(state: EmulatorState, sql: string, ids: readonly number[]): void {
  const update = state.db.prepare(sql);
  ids.forEach((id, index) => update.run(index + 1, id));
}
