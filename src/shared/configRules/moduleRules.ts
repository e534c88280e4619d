/**
 * The rules a module's settings must meet before a change is queued (spec "Module settings":
 * names and icon "max 50 each", projects "array size 0-100, max length 10000", module_property
 * "max length 1000", default_layout_type `public` or `private`), plus the service's own: names
 * unique among the portal's modules (case-insensitively, singular and plural alike, as the
 * emulator checks: packages/emulator/src/api/modules.ts), and the product's own modules never
 * renamed, deactivated or deleted. Pure: the Configure form shows each problem next to its
 * control with these words, and the engine checks again with the same function before queuing.
 */
import { MODULE_TEXT_MAX } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  MODULE_PROJECTS_MAX as PROJECTS_MAX,
  MODULE_PROPERTY_JSON_MAX,
} from '@portaldesk/portal-api/domain/limits';

/** "singular_name, plural_name, icon_class (strings, max 50 each)". */
export const MODULE_NAME_MAX = MODULE_TEXT_MAX;
/** "projects (array size 0-100 ...)". */
export const MODULE_PROJECTS_MAX = PROJECTS_MAX;
/** "projects (... max length 10000)": the JSON text of the array sent. */
export const MODULE_PROJECTS_JSON_MAX = 10_000;

export interface ModuleSettingsInput {
  singularName: string;
  pluralName: string;
  iconClass: string | null;
  isAllProjects: boolean;
  isOverviewNeeded: boolean;
  defaultLayoutType: 'public' | 'private';
  projects: readonly string[];
}

/** Another module of the portal, whose names a module may not take. */
export interface ModuleNames {
  id: string;
  singularName: string;
  pluralName: string;
}

export type ModuleSettingKey = keyof ModuleSettingsInput;
/** Problems by the setting they are about; `form` for what belongs to no one control. */
export type ModuleProblems = Partial<Record<ModuleSettingKey | 'form', string>>;

/** Each setting in words, as the form labels it (problems, plans and conflicts say these). */
export const MODULE_SETTING_LABEL: Record<ModuleSettingKey, string> = {
  singularName: 'Singular name',
  pluralName: 'Plural name',
  iconClass: 'Icon',
  isAllProjects: 'Projects',
  isOverviewNeeded: 'Overview',
  defaultLayoutType: 'Default layout type',
  projects: 'Projects',
};

/** Characters as the service counts a string's length (code points). */
const lengthOf = (text: string) => [...text].length;

function textProblem(key: ModuleSettingKey, value: string, required: boolean): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return required ? `${MODULE_SETTING_LABEL[key]}: required.` : null;
  const length = lengthOf(trimmed);
  if (length > MODULE_NAME_MAX) {
    return `${MODULE_SETTING_LABEL[key]}: at most ${MODULE_NAME_MAX} characters (${length} given).`;
  }
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    return `${MODULE_SETTING_LABEL[key]}: no control characters (tabs, line breaks).`;
  }
  return null;
}

/** The body's projects member as it will be sent: `[{project:{id}, is_selected: true}]`. */
export function projectsMember(ids: readonly string[]) {
  return ids.map((id) => ({ project: { id }, is_selected: true }));
}

function projectsProblem(ids: readonly string[], isAllProjects: boolean): string | null {
  if (new Set(ids).size !== ids.length) return 'Projects: a project is chosen twice.';
  if (ids.length > MODULE_PROJECTS_MAX) {
    return `Projects: at most ${MODULE_PROJECTS_MAX} (${ids.length} chosen); choose "All projects" instead.`;
  }
  const length = JSON.stringify(projectsMember(ids)).length;
  if (length > MODULE_PROJECTS_JSON_MAX) {
    return `Projects: the list is ${length} characters long as sent; the service takes at most ${MODULE_PROJECTS_JSON_MAX}.`;
  }
  if (!isAllProjects && ids.length === 0) {
    return 'Projects: choose at least one project, or "All projects".';
  }
  return null;
}

/** Which other module already has `name` as one of its names (case-insensitively), if any. */
export function nameClash(name: string, others: readonly ModuleNames[]): ModuleNames | undefined {
  const wanted = name.trim().toLowerCase();
  if (wanted === '') return undefined;
  return others.find(
    (other) =>
      other.singularName.trim().toLowerCase() === wanted ||
      other.pluralName.trim().toLowerCase() === wanted,
  );
}

export interface ModuleRulesContext {
  /** The portal's other modules (queued creates and renames included, trashed ones not). */
  others: readonly ModuleNames[];
  /** The module is one of the product's own (projects, phases, tasklists, tasks, issues). */
  builtIn: boolean;
}

/**
 * What is wrong with a module's settings, by setting. `settings` holds what changes (everything
 * for a new module); an empty result means it may be queued.
 */
export function moduleSettingsProblems(
  settings: Partial<ModuleSettingsInput>,
  context: ModuleRulesContext,
  creating: boolean,
): ModuleProblems {
  const problems: ModuleProblems = {};
  for (const key of ['singularName', 'pluralName'] as const) {
    const value = settings[key];
    if (value === undefined) {
      if (creating) problems[key] = `${MODULE_SETTING_LABEL[key]}: required.`;
      continue;
    }
    if (context.builtIn) {
      problems[key] =
        `${MODULE_SETTING_LABEL[key]}: this is one of the product's own modules; it cannot be renamed.`;
      continue;
    }
    const problem = textProblem(key, value, true);
    if (problem) {
      problems[key] = problem;
      continue;
    }
    const clash = nameClash(value, context.others);
    if (clash) {
      problems[key] =
        `${MODULE_SETTING_LABEL[key]}: "${value.trim()}" is already a name of ${clash.pluralName}.`;
    }
  }
  if (settings.iconClass !== undefined && settings.iconClass !== null) {
    const problem = textProblem('iconClass', settings.iconClass, false);
    if (problem) problems.iconClass = problem;
  }
  if (settings.defaultLayoutType !== undefined) {
    if (settings.defaultLayoutType !== 'public' && settings.defaultLayoutType !== 'private') {
      problems.defaultLayoutType = 'Default layout type: public or private.';
    } else if (
      JSON.stringify({ default_layout_type: settings.defaultLayoutType }).length >
      MODULE_PROPERTY_JSON_MAX
    ) {
      problems.defaultLayoutType = `Default layout type: the module property is longer than ${MODULE_PROPERTY_JSON_MAX} characters.`;
    }
  }
  if (settings.projects !== undefined || settings.isAllProjects !== undefined) {
    const problem = projectsProblem(settings.projects ?? [], settings.isAllProjects ?? true);
    if (problem && (settings.projects !== undefined || creating)) problems.projects = problem;
  }
  return problems;
}

/** The first problem in words, or null: what the engine refuses a change with. */
export function firstProblem(problems: ModuleProblems): string | null {
  const [first] = Object.values(problems);
  return first ?? null;
}

/** A permanent delete names what it removes: the plural name typed exactly (spaces trimmed). */
export function deleteConfirmationProblem(typed: string, pluralName: string): string | null {
  if (typed.trim() === pluralName.trim()) return null;
  return `Type the module's name, ${pluralName}, exactly to delete it for good.`;
}
