/** Validation of the module create/update bodies' structured members. */
import { apiErrors } from '../http/apiError';
import { idString, parseId } from '../api/common';
import {
  MODULE_PROJECTS_MAX_CHARS,
  MODULE_PROJECTS_MAX_ITEMS,
  MODULE_PROPERTY_MAX_CHARS,
} from './limits';

export interface StoredProject {
  project: { id: string };
  is_selected: boolean;
}

/**
 * "projects (array size 0-100, max length 10000, items {project:{id}, is_selected})". The length
 * is that of the array's JSON text as received (extra members such as a project's name count but
 * are not kept). `is_selected` defaults to true.
 */
export function readProjects(
  value: unknown,
  portalProjects: ReadonlyMap<number, string>,
): StoredProject[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw apiErrors.invalidParameter('projects must be an array.');
  if (value.length > MODULE_PROJECTS_MAX_ITEMS) {
    throw apiErrors.invalidParameter(
      `projects has ${value.length} items; at most ${MODULE_PROJECTS_MAX_ITEMS} are allowed.`,
    );
  }
  if (JSON.stringify(value).length > MODULE_PROJECTS_MAX_CHARS) {
    throw apiErrors.invalidParameter(
      `projects is longer than ${MODULE_PROJECTS_MAX_CHARS} characters.`,
    );
  }
  const seen = new Set<number>();
  return value.map((item: unknown, index) => {
    const where = `projects[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw apiErrors.invalidParameter(`${where} must be an object {project:{id}, is_selected}.`);
    }
    const { project, is_selected: selected } = item as { project?: unknown; is_selected?: unknown };
    if (typeof project !== 'object' || project === null) {
      throw apiErrors.invalidParameter(`${where}.project must be an object with an id.`);
    }
    const id = parseId((project as { id?: unknown }).id, `${where}.project.id`);
    if (selected !== undefined && selected !== null && typeof selected !== 'boolean') {
      throw apiErrors.invalidParameter(`${where}.is_selected must be true or false.`);
    }
    if (!portalProjects.has(id)) throw apiErrors.notFound(`Project ${id} (${where})`);
    if (seen.has(id)) throw apiErrors.invalidParameter(`${where}: project ${id} is listed twice.`);
    seen.add(id);
    return { project: { id: idString(id) as string }, is_selected: selected ?? true };
  });
}

/** "module_property (object, max length 1000; default_layout_type public or private)". */
export function readModuleProperty(
  value: unknown,
): { defaultLayoutType: 'public' | 'private' | undefined } | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw apiErrors.invalidParameter('module_property must be an object.');
  }
  if (JSON.stringify(value).length > MODULE_PROPERTY_MAX_CHARS) {
    throw apiErrors.invalidParameter(
      `module_property is longer than ${MODULE_PROPERTY_MAX_CHARS} characters.`,
    );
  }
  const type = (value as { default_layout_type?: unknown }).default_layout_type;
  if (type === undefined || type === null) return { defaultLayoutType: undefined };
  if (type !== 'public' && type !== 'private') {
    throw apiErrors.invalidParameter(
      'module_property.default_layout_type must be public or private.',
    );
  }
  return { defaultLayoutType: type };
}
