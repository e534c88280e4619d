/**
 * A module's configuration changes as outbox operations (pure). An operation is of kind `config`
 * with an `action` (`module.create`, `module.update`, ...); it queues under `module:<module id>`
 * (a temporary `tmp-m-…` id until the service created the module), and its `fields` hold the
 * settings it changes by their API body key, each with the value it sets and the value it was
 * made on (`base`, null for a create), as a record's update does: so a change made on the service
 * meanwhile is found field by field, and a change undone before it went is dropped.
 */
import type { ModuleAction } from '../../shared/ipc/areas/configure';
import { projectsMember, type ModuleSettingsInput } from '../../shared/configRules/moduleRules';
import { isOpen, type OpFields, type OutboxOp } from '../outbox/outboxTypes';

export const TEMP_MODULE_PREFIX = 'tmp-m-';
export const MODULE_QUEUE_PREFIX = 'module:';

/** The queue (the outbox's `record_id`) of a module's changes. */
export const moduleQueue = (moduleId: string) => `${MODULE_QUEUE_PREFIX}${moduleId}`;
export const isTempModule = (moduleId: string) => moduleId.startsWith(TEMP_MODULE_PREFIX);

export type ModuleOpAction = `module.${ModuleAction}`;
export const opAction = (action: ModuleAction): ModuleOpAction => `module.${action}`;

/** The module action of a config operation, or null when it is not a module's. */
export function moduleActionOf(op: Pick<OutboxOp, 'kind' | 'action'>): ModuleAction | null {
  if (op.kind !== 'config' || !op.action?.startsWith('module.')) return null;
  return op.action.slice('module.'.length) as ModuleAction;
}

/** A module's settings by API body key, as the overlay and the conflict check compare them. */
export interface ModuleSettingsByKey {
  singular_name: string;
  plural_name: string;
  icon_class: string | null;
  is_global_module: boolean;
  is_all_projects: boolean;
  is_overview_needed: boolean;
  default_layout_type: 'public' | 'private' | null;
  /** Ids of the projects it is on (selected ones). */
  projects: string[];
}
export type ModuleSettingKey = keyof ModuleSettingsByKey;

/** The form's names → the API's body keys. */
export const BODY_KEY: Record<keyof ModuleSettingsInput | 'isGlobal', ModuleSettingKey> = {
  singularName: 'singular_name',
  pluralName: 'plural_name',
  iconClass: 'icon_class',
  isGlobal: 'is_global_module',
  isAllProjects: 'is_all_projects',
  isOverviewNeeded: 'is_overview_needed',
  defaultLayoutType: 'default_layout_type',
  projects: 'projects',
};

/** How the Outbox and a conflict name each setting. */
export const SETTING_LABEL: Record<ModuleSettingKey, string> = {
  singular_name: 'Singular name',
  plural_name: 'Plural name',
  icon_class: 'Icon',
  is_global_module: 'Global',
  is_all_projects: 'All projects',
  is_overview_needed: 'Overview',
  default_layout_type: 'Default layout type',
  projects: 'Projects',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A module's settings from what the service showed of it (the mirror's columns and `details`,
 * which keep the rest of the API's module as given).
 */
export function settingsOf(module: {
  singularName: string;
  pluralName: string;
  iconClass: string | null;
  details: Record<string, unknown>;
}): ModuleSettingsByKey {
  const { details } = module;
  const property = isObject(details.module_property) ? details.module_property : {};
  const layoutType = property.default_layout_type;
  const projects = Array.isArray(details.projects) ? details.projects : [];
  return {
    singular_name: module.singularName,
    plural_name: module.pluralName,
    icon_class: module.iconClass,
    is_global_module: details.is_global_module === true,
    is_all_projects: details.is_all_projects !== false,
    is_overview_needed: details.is_overview_needed === true,
    default_layout_type: layoutType === 'public' || layoutType === 'private' ? layoutType : null,
    projects: projects.flatMap((item) =>
      isObject(item) && isObject(item.project) && item.is_selected !== false
        ? [String(item.project.id)]
        : [],
    ),
  };
}

/** The settings a form gave, by body key (names trimmed as the service keeps them). */
export function settingsByKey(
  settings: Partial<ModuleSettingsInput> & { isGlobal?: boolean },
): Partial<ModuleSettingsByKey> {
  const out: Partial<Record<ModuleSettingKey, unknown>> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    const key = BODY_KEY[name as keyof typeof BODY_KEY];
    if (!key) continue;
    out[key] =
      typeof value === 'string' && (key === 'singular_name' || key === 'plural_name')
        ? value.trim()
        : key === 'icon_class' && typeof value === 'string'
          ? value.trim() === ''
            ? null
            : value.trim()
          : value;
  }
  return out as Partial<ModuleSettingsByKey>;
}

/** `fields` of an operation: each setting with the value it sets and the one it was made on. */
export function opFields(
  changes: Partial<ModuleSettingsByKey>,
  base: ModuleSettingsByKey | null,
): OpFields {
  const fields: OpFields = {};
  for (const [key, value] of Object.entries(changes)) {
    fields[key] = { value, base: base ? base[key as ModuleSettingKey] : null };
  }
  return fields;
}

/** Whether two values of a setting mean the same (projects in any order). */
export function sameSetting(key: string, a: unknown, b: unknown): boolean {
  if (key === 'projects' && Array.isArray(a) && Array.isArray(b)) {
    return JSON.stringify([...a].map(String).sort()) === JSON.stringify([...b].map(String).sort());
  }
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The POST body of a create, from its fields. */
export function createBody(fields: OpFields): Record<string, unknown> {
  const value = (key: ModuleSettingKey) => fields[key]?.value;
  const body: Record<string, unknown> = {
    singular_name: value('singular_name'),
    plural_name: value('plural_name'),
    is_global_module: value('is_global_module') === true,
    is_all_projects: value('is_all_projects') !== false,
    is_overview_needed: value('is_overview_needed') === true,
  };
  const icon = value('icon_class');
  if (typeof icon === 'string' && icon !== '') body.icon_class = icon;
  const projects = value('projects');
  if (Array.isArray(projects) && projects.length > 0 && value('is_all_projects') === false) {
    body.projects = projectsMember(projects as string[]);
  }
  const layoutType = value('default_layout_type');
  if (layoutType === 'public' || layoutType === 'private') {
    body.module_property = { default_layout_type: layoutType };
  }
  return body;
}

/** The PATCH body of an update: the settings in `keys` (all of the op's by default). */
export function patchBody(
  fields: OpFields,
  keys: readonly string[] = Object.keys(fields),
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of keys) {
    const entry = fields[key];
    if (!entry) continue;
    if (key === 'default_layout_type') {
      body.module_property = { default_layout_type: entry.value };
    } else if (key === 'projects') {
      body.projects = projectsMember(entry.value as string[]);
    } else if (key === 'icon_class') {
      // The service keeps an icon; an emptied one is not sent (there is nothing to clear it to).
      if (typeof entry.value === 'string' && entry.value !== '') body.icon_class = entry.value;
    } else {
      body[key] = entry.value;
    }
  }
  return body;
}

const SETTINGS_PATH = '/api/v3/portal/{portal}/settings/modules';

/** What an operation will send, for the Outbox to show (the API name once the module has one). */
export function requestOf(
  op: Pick<OutboxOp, 'kind' | 'action' | 'fields' | 'portalId'>,
  apiName: string | null,
): { method: string; path: string; body: unknown } {
  const base = SETTINGS_PATH.replace('{portal}', op.portalId);
  const name = apiName ?? '(its API name, once created)';
  switch (moduleActionOf(op)) {
    case 'create':
      return { method: 'POST', path: base, body: createBody(op.fields) };
    case 'update':
      return { method: 'PATCH', path: `${base}/${name}`, body: patchBody(op.fields) };
    case 'activate':
      return { method: 'PATCH', path: `${base}/${name}/activate`, body: null };
    case 'deactivate':
      return { method: 'PATCH', path: `${base}/${name}/deactivate`, body: null };
    case 'trash':
      return { method: 'DELETE', path: `${base}/${name}`, body: null };
    case 'recover':
      return { method: 'POST', path: `${base}/bin/${name}/recover`, body: null };
    case 'delete':
      return { method: 'DELETE', path: `${base}/bin/${name}`, body: null };
    default:
      return { method: '?', path: base, body: null };
  }
}

const shown = (value: unknown) =>
  Array.isArray(value)
    ? `${value.length} project${value.length === 1 ? '' : 's'}`
    : typeof value === 'boolean'
      ? value
        ? 'yes'
        : 'no'
      : value === null || value === ''
        ? 'none'
        : String(value);

/** One line for an operation: "Create module Assets", "Rename to Equipment", "Deactivate". */
export function summaryOf(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>): string {
  const value = (key: ModuleSettingKey) => op.fields[key]?.value;
  switch (moduleActionOf(op)) {
    case 'create':
      return `Create module ${String(value('plural_name'))}`;
    case 'update': {
      const parts = Object.keys(op.fields).map((key) =>
        key === 'plural_name'
          ? `rename to ${String(value('plural_name'))}`
          : `${SETTING_LABEL[key as ModuleSettingKey] ?? key}: ${shown(op.fields[key]?.value)}`,
      );
      const text = parts.join('; ');
      return text.charAt(0).toUpperCase() + text.slice(1);
    }
    case 'activate':
      return 'Activate';
    case 'deactivate':
      return 'Deactivate';
    case 'trash':
      return 'Move to the module bin';
    case 'recover':
      return 'Recover from the module bin';
    case 'delete':
      return 'Delete for good, with its records';
    default:
      return op.action ?? 'Change';
  }
}

/** What queuing a change does to a module's queue. */
export type ModulePlan =
  /** A new operation with these fields. */
  | { kind: 'insert'; fields: OpFields }
  /** Folded into an operation not sent yet: its fields become these. */
  | { kind: 'fold'; seq: number; fields: OpFields }
  /** Undoes operations not sent yet: they are dropped, nothing is queued. */
  | { kind: 'drop'; seqs: number[] }
  /** Nothing changes (the change is already queued or already so). */
  | { kind: 'none' };

const OPPOSITE: Partial<Record<ModuleAction, ModuleAction>> = {
  activate: 'deactivate',
  deactivate: 'activate',
  trash: 'recover',
  recover: 'trash',
};

/**
 * Where a change goes in its module's queue (`queue`: the module's operations in order):
 * - settings changed again before they went are folded into the create or update not sent yet,
 *   and a setting changed back to its base is dropped (an update left empty goes);
 * - an action undone before it went (deactivate then activate, trash then recover) drops both;
 * - a module created here and trashed before it was ever sent never existed: its queue goes.
 */
export function planModuleChange(
  queue: readonly OutboxOp[],
  action: ModuleAction,
  changes: OpFields,
): ModulePlan {
  /**
   * The newest op not sent yet of one of `kinds`, looking back over open ops of `over` only:
   * settings and activation do not depend on each other, so a change may fold past the other.
   */
  const latest = (kinds: readonly ModuleAction[], over: readonly ModuleAction[]) => {
    for (let i = queue.length - 1; i >= 0; i--) {
      const op = queue[i]!;
      const opAction = moduleActionOf(op);
      if (!isOpen(op) || opAction === null) return undefined;
      if (kinds.includes(opAction)) return op;
      if (!over.includes(opAction)) return undefined;
    }
    return undefined;
  };
  if (action === 'update') {
    const into = latest(['create', 'update'], ['activate', 'deactivate']);
    if (into) {
      const fields: OpFields = { ...into.fields };
      for (const [key, entry] of Object.entries(changes)) {
        const before = fields[key];
        fields[key] = { value: entry.value, base: before ? before.base : entry.base };
      }
      if (moduleActionOf(into) === 'update') {
        for (const [key, entry] of Object.entries(fields)) {
          if (sameSetting(key, entry.value, entry.base)) delete fields[key];
        }
        if (Object.keys(fields).length === 0) return { kind: 'drop', seqs: [into.seq] };
      }
      return { kind: 'fold', seq: into.seq, fields };
    }
    const fields: OpFields = {};
    for (const [key, entry] of Object.entries(changes)) {
      if (!sameSetting(key, entry.value, entry.base)) fields[key] = entry;
    }
    return Object.keys(fields).length === 0 ? { kind: 'none' } : { kind: 'insert', fields };
  }
  if (action === 'create') return { kind: 'insert', fields: changes };
  if (action === 'trash') {
    const head = queue[0];
    if (head && moduleActionOf(head) === 'create' && isOpen(head)) {
      return { kind: 'drop', seqs: queue.map((op) => op.seq) };
    }
  }
  if (action === 'activate' || action === 'deactivate') {
    const toggle = latest(['activate', 'deactivate'], ['update']);
    if (toggle) {
      return moduleActionOf(toggle) === action
        ? { kind: 'none' }
        : { kind: 'drop', seqs: [toggle.seq] };
    }
    return { kind: 'insert', fields: {} };
  }
  const last = queue.at(-1);
  const opposite = OPPOSITE[action];
  if (last && isOpen(last) && opposite !== undefined && moduleActionOf(last) === opposite) {
    return { kind: 'drop', seqs: [last.seq] };
  }
  if (last && isOpen(last) && moduleActionOf(last) === action && action !== 'delete') {
    return { kind: 'none' };
  }
  return { kind: 'insert', fields: {} };
}
