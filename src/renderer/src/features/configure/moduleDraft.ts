/**
 * A module's settings as the Configure form edits them, and what of them goes to the engine:
 * everything for a new module, only what changed for an existing one (the parts not touched are
 * not sent). Validated with the shared rules the engine checks again before queuing. Pure.
 */
import {
  moduleSettingsProblems,
  type ModuleNames,
  type ModuleProblems,
  type ModuleSettingsInput,
} from '../../../../shared/configRules/moduleRules';
import type { ConfigModule, ConfigModules } from '../../../../shared/ipc/areas/configure';
import type { ModuleSettingsChanges, NewModuleSettings } from './configureStore';

export interface ModuleDraft {
  singularName: string;
  pluralName: string;
  /** '' for none. */
  iconClass: string;
  /** Fixed once created: the edit form shows it only. */
  isGlobal: boolean;
  isAllProjects: boolean;
  isOverviewNeeded: boolean;
  defaultLayoutType: 'public' | 'private';
  projects: string[];
}

/** The form's controls in screen order: a submit with problems focuses the first invalid one. */
export const CONTROL_ORDER = [
  'singularName',
  'pluralName',
  'iconClass',
  'projects',
  'isOverviewNeeded',
  'defaultLayoutType',
  'form',
] as const;
export type ControlKey = (typeof CONTROL_ORDER)[number];

export const EMPTY_DRAFT: ModuleDraft = {
  singularName: '',
  pluralName: '',
  iconClass: '',
  isGlobal: false,
  isAllProjects: true,
  isOverviewNeeded: false,
  defaultLayoutType: 'public',
  projects: [],
};

/** A module without a default layout type shows (and keeps) the service's default, public. */
const layoutOf = (module: ConfigModule) => module.defaultLayoutType ?? 'public';

const selectedProjects = (module: ConfigModule) =>
  module.projects.filter((project) => project.selected).map((project) => project.id);

export function draftOf(module: ConfigModule): ModuleDraft {
  return {
    singularName: module.singularName,
    pluralName: module.pluralName,
    iconClass: module.iconClass ?? '',
    isGlobal: module.isGlobal,
    isAllProjects: module.isAllProjects,
    isOverviewNeeded: module.isOverviewNeeded,
    defaultLayoutType: layoutOf(module),
    projects: selectedProjects(module),
  };
}

const iconOf = (draft: ModuleDraft) =>
  draft.iconClass.trim() === '' ? null : draft.iconClass.trim();

/** A new module's settings as sent: names trimmed, no icon as null; a global one is on all. */
export function newModuleSettings(draft: ModuleDraft): NewModuleSettings {
  const onAll = draft.isGlobal || draft.isAllProjects;
  return {
    singularName: draft.singularName.trim(),
    pluralName: draft.pluralName.trim(),
    iconClass: iconOf(draft),
    isGlobal: draft.isGlobal,
    isAllProjects: onAll,
    isOverviewNeeded: draft.isOverviewNeeded,
    defaultLayoutType: draft.defaultLayoutType,
    projects: onAll ? [] : [...draft.projects],
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** What the draft changes of `module`: only those settings are sent (and checked). */
export function changesOf(draft: ModuleDraft, module: ConfigModule): ModuleSettingsChanges {
  const changes: ModuleSettingsChanges = {};
  // Names are compared as typed: a trailing space alone is no rename, and is not sent.
  if (draft.singularName.trim() !== module.singularName) {
    changes.singularName = draft.singularName.trim();
  }
  if (draft.pluralName.trim() !== module.pluralName) changes.pluralName = draft.pluralName.trim();
  if (iconOf(draft) !== module.iconClass) changes.iconClass = iconOf(draft);
  if (draft.isOverviewNeeded !== module.isOverviewNeeded) {
    changes.isOverviewNeeded = draft.isOverviewNeeded;
  }
  if (draft.defaultLayoutType !== layoutOf(module)) {
    changes.defaultLayoutType = draft.defaultLayoutType;
  }
  if (!module.isGlobal) {
    const allChanged = draft.isAllProjects !== module.isAllProjects;
    const listChanged = !draft.isAllProjects && !sameSet(draft.projects, selectedProjects(module));
    // The two travel together: the rules read an absent "all projects" as on.
    if (allChanged || listChanged) {
      changes.isAllProjects = draft.isAllProjects;
      if (!draft.isAllProjects) changes.projects = [...draft.projects];
    }
  }
  return changes;
}

/** The portal's other modules whose names a module may not take (the bin's do not count). */
export function othersOf(modules: ConfigModules | null, selfId: string | null): ModuleNames[] {
  return (modules?.modules ?? [])
    .filter((module) => module.id !== selfId && module.state !== 'trashed')
    .map(({ id, singularName, pluralName }) => ({ id, singularName, pluralName }));
}

/** Problems by control, in the shared rules' words. */
export function draftProblems(
  draft: ModuleDraft,
  module: ConfigModule | null,
  others: readonly ModuleNames[],
): ModuleProblems {
  const settings: Partial<ModuleSettingsInput> = module
    ? changesOf(draft, module)
    : newModuleSettings(draft);
  return moduleSettingsProblems(settings, { others, builtIn: module?.builtIn ?? false }, !module);
}

/** The control a problem belongs to (both projects settings are one control on screen). */
export function controlOf(key: keyof ModuleProblems): ControlKey {
  return key === 'isAllProjects' ? 'projects' : key;
}

/** The first control, in screen order, with a problem. */
export function firstInvalid(problems: ModuleProblems): ControlKey | null {
  const keys = new Set(Object.keys(problems).map((key) => controlOf(key as keyof ModuleProblems)));
  return CONTROL_ORDER.find((key) => keys.has(key)) ?? null;
}
