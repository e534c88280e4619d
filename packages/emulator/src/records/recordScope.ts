/**
 * What every record and comment route resolves first: the portal, the custom module, the
 * `{scope_path}` and (for one record) the record, each a 404 when it is not there.
 *
 * `{scope_path}` is "the path segment that precedes a module name; the examples show it either as
 * the literal `projects` or as a numeric id". Ours (as the settings routes'): `projects` = every
 * record of the module; a numeric id = only the records of that project of the portal (404 when
 * there is no such project, or the module is not switched on in it); anything else is 400.
 */
import { apiErrors } from '../http/apiError';
import type { ApiRequest } from '../http/types';
import type { EmulatorState } from '../state';
import {
  parseId,
  requireModule,
  requirePortal,
  type ModuleRow,
  type PortalRow,
} from '../api/common';
import { prepared } from '../model/prepared';
import { recordCaches, type RecordCaches } from './recordCache';
import { moduleMeta, portalMeta, type ModuleMeta, type PortalMeta } from './recordMeta';
import type { EntityRow } from './entityJson';

export interface RecordScope {
  caches: RecordCaches;
  portal: PortalRow;
  module: ModuleMeta;
  portalMeta: PortalMeta;
  /** The project of a numeric `{scope_path}`, or null for `projects`. */
  scopeProjectId: number | null;
}

/** Whether the module is switched on in a project ("is_all_projects", or selected in `projects`). */
function moduleInProject(module: ModuleRow, projectId: number): boolean {
  if (module.is_all_projects) return true;
  try {
    const projects = JSON.parse(module.projects) as {
      project?: { id?: unknown };
      is_selected?: unknown;
    }[];
    return projects.some((item) => item.is_selected && Number(item.project?.id) === projectId);
  } catch {
    return false;
  }
}

function scopeProject(
  state: EmulatorState,
  request: ApiRequest,
  portalId: number,
  module: ModuleRow,
): number | null {
  const scope = request.params.scope_path;
  if (scope === 'projects') return null;
  if (!scope || !/^\d+$/.test(scope)) {
    throw apiErrors.invalidParameter(
      `scope_path must be projects or a project id, not ${JSON.stringify(scope ?? '')}.`,
    );
  }
  const projectId = parseId(scope, 'scope_path');
  const found = prepared(
    state.db,
    `SELECT 1 FROM work_items WHERE id = ? AND portal_id = ? AND module = 'projects'
     AND trashed_time IS NULL`,
  ).get(projectId, portalId);
  if (!found) throw apiErrors.notFound(`Project ${projectId}`);
  if (!moduleInProject(module, projectId)) {
    throw apiErrors.notFound(`Module ${module.api_name} in project ${projectId}`);
  }
  return projectId;
}

/** Portal, custom module and scope of a record route. Only custom modules have records. */
export function recordScope(state: EmulatorState, request: ApiRequest): RecordScope {
  const caches = recordCaches(state.db);
  const portal = requirePortal(state, request);
  const name = request.params.module_api_name;
  const row = requireModule(state, portal.id, name, { parameter: 'module_api_name' });
  if (row.is_customized !== 1) throw apiErrors.notFound(`Custom module ${name}`);
  const scopeProjectId = scopeProject(state, request, portal.id, row);
  const module = moduleMeta(caches, state.db, row.id);
  const meta = portalMeta(caches, state.db, portal.id);
  if (!module || !meta) throw apiErrors.notFound(`Custom module ${name}`);
  return { caches, portal, module, portalMeta: meta, scopeProjectId };
}

/** Writes need an active module; a deactivated one keeps its records readable. */
export function requireActiveModule(scope: RecordScope): void {
  if (!scope.module.active) {
    throw apiErrors.invalidParameter(
      `module ${scope.module.apiName} is deactivated; activate it to change its records.`,
    );
  }
}

/** The record named in the path, trashed or not, within the module and scope. */
export function requireEntity(
  state: EmulatorState,
  scope: RecordScope,
  idText: string | undefined,
  parameter = 'entity_id',
): EntityRow {
  const id = parseId(idText, parameter);
  const row = prepared(state.db, 'SELECT * FROM entities WHERE id = ? AND module_id = ?').get(
    id,
    scope.module.id,
  ) as EntityRow | undefined;
  if (!row || (scope.scopeProjectId !== null && row.project_id !== scope.scopeProjectId)) {
    throw apiErrors.notFound(`Record ${id}`);
  }
  return row;
}

/** Changing a record (or its comments) needs it out of the trash. */
export function requireNotTrashed(row: EntityRow): void {
  if (row.trashed_time !== null) {
    throw apiErrors.invalidParameter(
      `record ${row.id} is in the trash; restore it first (POST .../entities/${row.id}/restore).`,
    );
  }
}
