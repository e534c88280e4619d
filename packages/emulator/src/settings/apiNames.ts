/**
 * API names of new modules and custom fields (the spec shows neither rule). Both are snake_case
 * ASCII, so they always match the `[a-zA-Z0-9_]+` path segment of the layout-field operation.
 */
import { API_NAME_BASE_MAX } from './limits';

/** "Déjà Vu Items!" → "deja_vu_items"; empty when nothing Latin is left. */
export function snakeCase(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, API_NAME_BASE_MAX)
    .replace(/_+$/, '');
}

/** `base`, or `base_2`, `base_3`, ... : the first one not in `taken`. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Built-in module names, and path literals under settings/modules that a module must not shadow. */
export const RESERVED_MODULE_NAMES = new Set([
  'projects',
  'phases',
  'tasklists',
  'tasks',
  'issues',
  'bin',
  'settings',
  'entities',
  'entity',
]);

/**
 * A module's api name comes from its plural name ("Service Tickets" → "service_tickets"); it must
 * start with a letter, and is unique in the portal, trashed modules included.
 */
export function moduleApiName(pluralName: string, taken: ReadonlySet<string>): string {
  let base = snakeCase(pluralName);
  if (base === '') base = 'custom_module';
  if (!/^[a-z]/.test(base)) base = `m_${base}`;
  return uniqueName(base, new Set([...taken, ...RESERVED_MODULE_NAMES]));
}

/** A custom field's api name: `cf_` + snake_case of its display name, unique in the module. */
export function fieldApiName(displayName: string, taken: ReadonlySet<string>): string {
  const base = snakeCase(displayName);
  return uniqueName(`cf_${base === '' ? 'field' : base}`, taken);
}
