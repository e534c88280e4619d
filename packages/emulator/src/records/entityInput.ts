/**
 * Checks a create or update body of a custom-module record (spec, "Custom-module record
 * (entity)" and "Custom field value types") and works out the record as it will be stored. Pure
 * over the module's and portal's metadata: the first problem throws an INVALID_PARAMETER_VALUE
 * naming the field and the rule, and the caller writes nothing.
 */
import { ENTITY_LIMITS } from '@portaldesk/portal-api/domain/customFieldTypes';
import { apiErrors } from '../http/apiError';
import { bool, parseId, text } from '../api/common';
import { customValue, type WriteMode } from './customValue';
import { optionsOn, type FieldMeta, type ModuleMeta, type PortalMeta } from './recordMeta';

/** "name (string, max 200)". */
export const NAME_MAX = ENTITY_LIMITS.name;
/** "description (string, max 80000)". */
export const DESCRIPTION_MAX = ENTITY_LIMITS.description;

/** The record's own fields a body may set ("Custom-module record (entity)"). */
const SYSTEM_KEYS = new Set([
  'name',
  'description',
  'status',
  'layout',
  'project',
  'is_closed',
  'is_external',
]);
/** Keys of the response a body may not set. */
const READ_ONLY_KEYS = new Set([
  'id',
  'owner',
  'created_time',
  'last_updated_time',
  'trashed_time',
]);

export interface StoredEntity {
  name: string;
  description: string;
  layoutId: number;
  statusId: number;
  projectId: number | null;
  isExternal: boolean;
  /** Custom values by api_name, in stored form. */
  custom: Record<string, unknown>;
}

export interface EntityPlan extends StoredEntity {
  /** Mirrors the status's closed type. */
  isClosed: boolean;
  /** The status differs from the stored one (always true on create): a timeline row is due. */
  statusChanged: boolean;
}

export interface PlanContext {
  module: ModuleMeta;
  portal: PortalMeta;
  /** The project named by a numeric `{scope_path}`, or null for `projects`. */
  scopeProjectId: number | null;
}

const invalid = (message: string) => apiErrors.invalidParameter(message);

/** `{ "id": ... }` (other keys of the object, as in responses, are ignored). */
function idOf(body: Record<string, unknown>, key: string): number | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${key} must be an object {"id": "<${key} id>"}.`);
  }
  return parseId((value as Record<string, unknown>).id, `${key}.id`);
}

function statusName(module: ModuleMeta, id: number): string {
  return `"${module.statuses.get(id)?.name ?? id}"`;
}

/** Why `zpuid` cannot be chosen in `field` on `layoutId`, or null. */
export function userProblem(
  portal: PortalMeta,
  field: FieldMeta,
  layoutId: number,
  zpuid: string,
): string | null {
  const user = portal.users.get(zpuid);
  if (!user || !portal.members.has(zpuid)) return `${zpuid} is not a user of this portal.`;
  if (user.status !== 'active') return `user ${zpuid} is ${user.status}.`;
  if (field.userList === 'selected_users') {
    const allowed = optionsOn(field.users, layoutId).map((option) => option.value);
    if (!allowed.includes(zpuid)) return `user ${zpuid} is not one of the field's selected users.`;
  }
  if (field.userList === 'selected_roles') {
    const roles = optionsOn(field.roles, layoutId).map((option) => option.value);
    if (!roles.includes(user.role)) {
      return `user ${zpuid} does not have one of the field's roles.`;
    }
  }
  return null;
}

function checkKeys(body: Record<string, unknown>, module: ModuleMeta): void {
  for (const key of Object.keys(body)) {
    if (SYSTEM_KEYS.has(key) || module.fields.has(key)) continue;
    if (READ_ONLY_KEYS.has(key)) throw invalid(`${key} is read-only.`);
    const names = [...SYSTEM_KEYS, ...module.fields.keys()].join(', ');
    throw invalid(`${key} is not a field of module ${module.apiName}; fields: ${names}.`);
  }
}

function pickLayout(body: Record<string, unknown>, module: ModuleMeta, current?: StoredEntity) {
  const requested = idOf(body, 'layout');
  if (requested === undefined) {
    if (current) return current.layoutId;
    if (module.defaultLayoutId === null) {
      throw invalid(`module ${module.apiName} has no layout to create the record in.`);
    }
    return module.defaultLayoutId;
  }
  if (!module.layouts.has(requested)) {
    throw invalid(`layout ${requested} is not a layout of module ${module.apiName}.`);
  }
  return requested;
}

function pickStatus(
  body: Record<string, unknown>,
  module: ModuleMeta,
  layoutId: number,
  current?: StoredEntity,
): number {
  const onLayout = (id: number) => {
    const status = module.statuses.get(id);
    return status !== undefined && (status.layoutId === null || status.layoutId === layoutId);
  };
  const requested = idOf(body, 'status');
  if (requested === undefined) {
    if (current) {
      if (!onLayout(current.statusId)) {
        throw invalid(
          `status ${statusName(module, current.statusId)} is not used on layout ${layoutId}; give a status of that layout too.`,
        );
      }
      return current.statusId;
    }
    const candidates = [...module.statuses.values()].filter((status) => onLayout(status.id));
    const initial = candidates.find((status) => status.isDefault) ?? candidates[0];
    if (!initial) throw invalid(`module ${module.apiName} has no status for layout ${layoutId}.`);
    return initial.id;
  }
  if (!module.statuses.has(requested)) {
    throw invalid(`status ${requested} is not a status of module ${module.apiName}.`);
  }
  if (!onLayout(requested)) {
    throw invalid(`status ${statusName(module, requested)} is not used on layout ${layoutId}.`);
  }
  if (current && requested !== current.statusId) {
    const allowed = module.transitions.get(current.statusId) ?? new Set<number>();
    if (!allowed.has(requested)) {
      const next = [...allowed].map((id) => statusName(module, id));
      throw invalid(
        `status cannot change from ${statusName(module, current.statusId)} to ${statusName(module, requested)}; ` +
          (next.length > 0
            ? `allowed next statuses: ${next.join(', ')}.`
            : 'no change is allowed.'),
      );
    }
  }
  return requested;
}

function pickProject(
  body: Record<string, unknown>,
  context: PlanContext,
  current?: StoredEntity,
): number | null {
  const { portal, scopeProjectId } = context;
  let project: number | null;
  if (!('project' in body)) {
    project = current ? current.projectId : scopeProjectId;
  } else if (body.project === null) {
    project = null;
  } else {
    project = idOf(body, 'project') as number;
    const found = portal.projects.get(project);
    if (!found || found.trashed)
      throw invalid(`project ${project} is not a project of this portal.`);
  }
  if (scopeProjectId !== null && project !== scopeProjectId) {
    throw invalid(
      `project must stay ${scopeProjectId}, the project in the path; use the "projects" path to move the record.`,
    );
  }
  return project;
}

/**
 * The record as it will be stored after applying `body`: a new record when `current` is absent,
 * else an update of `current` (which is not modified).
 */
export function planEntity(
  body: Record<string, unknown>,
  context: PlanContext,
  current?: StoredEntity,
): EntityPlan {
  const { module, portal } = context;
  const mode: WriteMode = current ? 'update' : 'create';
  checkKeys(body, module);

  const name =
    current && !('name' in body) ? current.name : (text(body, 'name', NAME_MAX, true) as string);
  const description =
    'description' in body
      ? (text(body, 'description', DESCRIPTION_MAX) ?? '')
      : (current?.description ?? '');
  const layoutId = pickLayout(body, module, current);
  const layout = module.layouts.get(layoutId);
  const statusId = pickStatus(body, module, layoutId, current);
  const closed = module.statuses.get(statusId)?.closed ?? false;
  const isClosed = bool(body, 'is_closed');
  if (isClosed !== undefined && isClosed !== closed) {
    throw invalid(
      `is_closed is ${isClosed} but status ${statusName(module, statusId)} is ${closed ? 'a closed' : 'an open'} status; ` +
        `is_closed follows the status, so set a${isClosed ? ' closed' : 'n open'} status instead.`,
    );
  }
  const projectId = pickProject(body, context, current);
  const isExternal = bool(body, 'is_external') ?? current?.isExternal ?? false;

  // Values of fields the (new) layout does not show are dropped.
  const onLayout = (apiName: string) => layout?.fieldNames.has(apiName) ?? true;
  const custom: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(current?.custom ?? {})) {
    if (module.fields.has(key) && onLayout(key)) custom[key] = value;
  }
  for (const [key, input] of Object.entries(body)) {
    const field = module.fields.get(key);
    if (!field) continue;
    if (!onLayout(key)) {
      throw invalid(`${key} is not a field of layout "${layout?.name ?? layoutId}".`);
    }
    const result = customValue(
      { ...field, options: optionsOn(field.options, layoutId) },
      input,
      mode,
      current?.custom[key],
      { userProblem: (zpuid) => userProblem(portal, field, layoutId, zpuid) },
    );
    if (!result.ok) throw invalid(result.message);
    if (result.value === undefined) delete custom[key];
    else custom[key] = result.value;
  }
  for (const field of layout?.fields ?? []) {
    if (field.mandatory && custom[field.apiName] === undefined) {
      throw invalid(
        field.apiName in body
          ? `${field.apiName} is mandatory and cannot be emptied.`
          : `${field.apiName} is mandatory on layout "${layout?.name}".`,
      );
    }
  }

  return {
    name,
    description,
    layoutId,
    statusId,
    projectId,
    isExternal,
    isClosed: closed,
    custom,
    statusChanged: !current || current.statusId !== statusId,
  };
}
