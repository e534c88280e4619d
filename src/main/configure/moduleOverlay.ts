/**
 * A portal's modules as the Configure view shows them (pure): the mirror's server copies and the
 * module bin as known here, with the queued configuration changes laid over in queue order, so
 * what the admin queued shows at once and a sync (which writes only the server copies) never
 * hides it. Computed on every read from the queue itself: discarding an operation needs no undo.
 */
import type { ConfigModule, PendingConfigChange } from '../../shared/ipc/areas/configure';
import type { OutboxOp } from '../outbox/outboxTypes';
import { moduleActionOf, settingsOf, summaryOf, type ModuleSettingsByKey } from './moduleOps';

/** A module the mirror holds (its server copy). */
export interface MirroredModule {
  id: string;
  apiName: string;
  singularName: string;
  pluralName: string;
  iconClass: string | null;
  isActive: boolean;
  isDefault: boolean;
  details: Record<string, unknown>;
  /** Listed records of it in the mirror. */
  records: number;
}

/** A module in the module bin as known here (trashed from this computer). */
export interface BinModule {
  id: string;
  apiName: string;
  singularName: string;
  pluralName: string;
  details: Record<string, unknown>;
  records: number;
  trashedTime: string;
}

interface Draft {
  id: string;
  apiName: string | null;
  settings: ModuleSettingsByKey;
  builtIn: boolean;
  state: ConfigModule['state'];
  records: number;
  localOnly: boolean;
  trashedTime: string | null;
  pending: PendingConfigChange[];
}

function pendingOf(op: OutboxOp): PendingConfigChange {
  return {
    opId: op.seq,
    action: moduleActionOf(op)!,
    summary: summaryOf(op),
    state: op.state,
    error: op.error,
  };
}

/** The modules with their queued changes laid over, by plural name. */
export function overlayModules(input: {
  mirrored: readonly MirroredModule[];
  bin: readonly BinModule[];
  ops: readonly OutboxOp[];
  projectNames: ReadonlyMap<string, string | null>;
}): ConfigModule[] {
  const drafts = new Map<string, Draft>();
  for (const module of input.mirrored) {
    drafts.set(module.id, {
      id: module.id,
      apiName: module.apiName,
      settings: settingsOf(module),
      builtIn: module.isDefault,
      state: module.isActive ? 'active' : 'inactive',
      records: module.records,
      localOnly: false,
      trashedTime: null,
      pending: [],
    });
  }
  for (const module of input.bin) {
    drafts.set(module.id, {
      id: module.id,
      apiName: module.apiName,
      settings: settingsOf({ ...module, iconClass: null }),
      builtIn: false,
      state: 'trashed',
      records: module.records,
      localOnly: false,
      trashedTime: module.trashedTime,
      pending: [],
    });
  }
  for (const op of input.ops) {
    const action = moduleActionOf(op);
    if (action === null) continue;
    if (action === 'create') {
      const value = (key: keyof ModuleSettingsByKey) => op.fields[key]?.value;
      drafts.set(op.moduleId, {
        id: op.moduleId,
        apiName: null,
        settings: {
          singular_name: String(value('singular_name') ?? ''),
          plural_name: String(value('plural_name') ?? ''),
          icon_class:
            typeof value('icon_class') === 'string' ? (value('icon_class') as string) : null,
          is_global_module: value('is_global_module') === true,
          is_all_projects: value('is_all_projects') !== false,
          is_overview_needed: value('is_overview_needed') === true,
          default_layout_type: value('default_layout_type') === 'private' ? 'private' : 'public',
          projects: Array.isArray(value('projects')) ? (value('projects') as string[]) : [],
        },
        builtIn: false,
        state: 'active',
        records: 0,
        localOnly: true,
        trashedTime: null,
        pending: [pendingOf(op)],
      });
      continue;
    }
    const draft = drafts.get(op.moduleId);
    // A change of a module that is gone from here (deleted on the service) is still in the Outbox.
    if (!draft) continue;
    draft.pending.push(pendingOf(op));
    if (action === 'update') {
      for (const [key, entry] of Object.entries(op.fields)) {
        (draft.settings as unknown as Record<string, unknown>)[key] = entry.value;
      }
    } else if (action === 'activate') {
      if (draft.state !== 'trashed') draft.state = 'active';
    } else if (action === 'deactivate') {
      if (draft.state !== 'trashed') draft.state = 'inactive';
    } else if (action === 'trash') {
      draft.state = 'trashed';
      draft.trashedTime ??= op.queuedAt;
    } else if (action === 'recover') {
      draft.state = 'active';
      draft.trashedTime = null;
    }
    // A queued permanent delete leaves the module in the bin, marked, until it goes.
  }
  return [...drafts.values()]
    .map((draft): ConfigModule => ({
      id: draft.id,
      apiName: draft.apiName,
      singularName: draft.settings.singular_name,
      pluralName: draft.settings.plural_name,
      iconClass: draft.settings.icon_class,
      isGlobal: draft.settings.is_global_module,
      isAllProjects: draft.settings.is_all_projects,
      isOverviewNeeded: draft.settings.is_overview_needed,
      defaultLayoutType: draft.settings.default_layout_type,
      builtIn: draft.builtIn,
      state: draft.state,
      records: draft.records,
      projects: draft.settings.projects.map((id) => ({
        id,
        name: input.projectNames.get(id) ?? null,
        selected: true,
      })),
      localOnly: draft.localOnly,
      trashedTime: draft.trashedTime,
      pending: draft.pending,
    }))
    .sort(
      (a, b) =>
        Number(a.builtIn) - Number(b.builtIn) ||
        a.pluralName.localeCompare(b.pluralName) ||
        a.id.localeCompare(b.id),
    );
}
