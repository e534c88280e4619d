/**
 * The recycle bin's rules as pure functions: which modules are trashable, batch sizes, the
 * restore window, and the list's sort and filter parameters. Every failure is a 400
 * INVALID_PARAMETER_VALUE that names the parameter and the rule.
 */
import { apiErrors } from '../http/apiError';
import { parseId } from '../api/common';

/** "module (string, required; one of projects, phases, tasklists, tasks, issues)". */
export const TRASHABLE_MODULES = ['projects', 'phases', 'tasklists', 'tasks', 'issues'] as const;
export type TrashableModule = (typeof TRASHABLE_MODULES)[number];

/** "Trash batch: items array 0-100 ids". */
export const TRASH_BATCH_MAX = 100;
/** "Restore from trash: within 30 days" (emulated time, so --time-scale and clock/advance apply). */
export const RESTORE_WINDOW_MS = 30 * 86_400_000;
/** Our limit for the list filter's `search_term` (not shown in the spec; a record name's size). */
export const SEARCH_TERM_MAX = 200;

export function isTrashableModule(value: unknown): value is TrashableModule {
  return typeof value === 'string' && (TRASHABLE_MODULES as readonly string[]).includes(value);
}

export interface Batch {
  module: TrashableModule;
  ids: number[];
}

/**
 * One `{module, items}` object. `module` is an API name or a built-in module's id
 * (`resolveModule` maps ids); `items` holds 0-100 numeric ids; duplicates count once; other keys
 * are refused so a misspelt `items` is not silently an empty batch.
 */
export function parseBatch(
  value: unknown,
  where: string,
  resolveModule: (text: string) => TrashableModule | null,
): Batch {
  const at = (name: string) => (where === '' ? name : `${where}.${name}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiErrors.invalidParameter(`${where || 'body'} must be an object {module, items}.`);
  }
  const body = value as Record<string, unknown>;
  const unknown = Object.keys(body).filter((key) => key !== 'module' && key !== 'items');
  if (unknown.length > 0) {
    throw apiErrors.invalidParameter(
      `${at(unknown[0] as string)} is not a known parameter; give module and items.`,
    );
  }
  const moduleText = body.module;
  if (moduleText === undefined || moduleText === null || moduleText === '') {
    throw apiErrors.invalidParameter(`${at('module')} is required.`);
  }
  const module =
    typeof moduleText === 'string' || typeof moduleText === 'number'
      ? resolveModule(String(moduleText))
      : null;
  if (!module) {
    throw apiErrors.invalidParameter(
      `${at('module')} must be one of ${TRASHABLE_MODULES.join(', ')} (API name or id), not ${JSON.stringify(moduleText)}.`,
    );
  }
  const items = body.items ?? [];
  if (!Array.isArray(items)) {
    throw apiErrors.invalidParameter(`${at('items')} must be an array of record ids.`);
  }
  if (items.length > TRASH_BATCH_MAX) {
    throw apiErrors.invalidParameter(
      `${at('items')} has ${items.length} ids; at most ${TRASH_BATCH_MAX} are allowed.`,
    );
  }
  const ids = items.map((item, index) => parseId(item, `${at('items')}[${index}]`));
  return { module, ids: [...new Set(ids)] };
}

/** The body of DELETE bin and POST bin/restore: an array of `{module, items}`. */
export function parseBatchList(
  value: unknown,
  resolveModule: (text: string) => TrashableModule | null,
): Batch[] {
  if (!Array.isArray(value)) {
    throw apiErrors.invalidInputStream('the body must be a JSON array of {module, items}');
  }
  return value.map((entry, index) => parseBatch(entry, `body[${index}]`, resolveModule));
}

/** The last emulated moment a record trashed at `trashedIso` can be restored (inclusive). */
export function restoreDeadlineMs(trashedIso: string): number {
  return Date.parse(trashedIso) + RESTORE_WINDOW_MS;
}

export function canRestore(trashedIso: string, nowMs: number): boolean {
  return nowMs <= restoreDeadlineMs(trashedIso);
}

export type BinSortField = 'trashed_time' | 'name';
export interface BinSort {
  field: BinSortField;
  descending: boolean;
}

/** Newest trash first when `sort_by` is absent. */
export const DEFAULT_BIN_SORT: BinSort = { field: 'trashed_time', descending: true };

/** "sort_by (string; accepted `trashed_time` or `name`, written as `asc(trashed_time)` style)". */
export function parseBinSort(text: string | null): BinSort {
  if (text === null || text === '') return DEFAULT_BIN_SORT;
  const match = /^(asc|desc)\((\w+)\)$/i.exec(text.trim());
  const field = match?.[2];
  if (!match || (field !== 'trashed_time' && field !== 'name')) {
    throw apiErrors.invalidParameter(
      `sort_by must be asc(<field>) or desc(<field>) with field trashed_time or name, not ${JSON.stringify(text)}.`,
    );
  }
  return { field, descending: (match[1] as string).toLowerCase() === 'desc' };
}

export interface BinFilter {
  modules?: TrashableModule[];
  trashedBy?: string;
  projectId?: number;
  searchTerm?: string;
}

const FILTER_KEYS = ['module', 'trashed_by', 'project_id', 'search_term'];

/**
 * The list's `filter` (its keys are not shown in the spec; ours): module (a name or an array of
 * names), trashed_by (a ZPUID), project_id (the project a record belongs to) and search_term (a
 * case-insensitive part of the name).
 */
export function parseBinFilter(filter: Record<string, unknown> | undefined): BinFilter {
  if (!filter) return {};
  for (const key of Object.keys(filter)) {
    if (!FILTER_KEYS.includes(key)) {
      throw apiErrors.invalidParameter(
        `filter.${key} is not a known key; use ${FILTER_KEYS.join(', ')}.`,
      );
    }
  }
  const result: BinFilter = {};
  if (filter.module !== undefined) {
    const list = Array.isArray(filter.module) ? filter.module : [filter.module];
    for (const module of list) {
      if (!isTrashableModule(module)) {
        throw apiErrors.invalidParameter(
          `filter.module must name ${TRASHABLE_MODULES.join(', ')}, not ${JSON.stringify(module)}.`,
        );
      }
    }
    result.modules = list as TrashableModule[];
  }
  if (filter.trashed_by !== undefined) {
    if (typeof filter.trashed_by !== 'string' || !/^\d+$/.test(filter.trashed_by)) {
      throw apiErrors.invalidParameter('filter.trashed_by must be a ZPUID (a string of digits).');
    }
    result.trashedBy = filter.trashed_by;
  }
  if (filter.project_id !== undefined) {
    result.projectId = parseId(filter.project_id, 'filter.project_id');
  }
  if (filter.search_term !== undefined) {
    const term = filter.search_term;
    if (typeof term !== 'string') {
      throw apiErrors.invalidParameter('filter.search_term must be a string.');
    }
    if ([...term].length > SEARCH_TERM_MAX) {
      throw apiErrors.invalidParameter(
        `filter.search_term is longer than ${SEARCH_TERM_MAX} characters.`,
      );
    }
    result.searchTerm = term;
  }
  return result;
}
