import type { Module } from '@portaldesk/portal-api/domain/module';
import type { MirrorModule } from '../store/mirror/mirrorTypes';

/** Members of a module that have columns of their own; the rest goes to `details`. */
const MAPPED = new Set([
  'id',
  'api_name',
  'singular_name',
  'plural_name',
  'icon_class',
  'is_active',
  'is_default',
  'created_time',
]);

/**
 * A module for the mirror, or null when the server sent it without an id (the mirror keys
 * records, layouts and fields by module id, so such a module cannot be stored).
 */
export function mapModule(module: Module): MirrorModule | null {
  if (module.id === null) return null;
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(module)) if (!MAPPED.has(key)) details[key] = value;
  return {
    id: module.id,
    apiName: module.api_name,
    singularName: module.singular_name,
    pluralName: module.plural_name,
    iconClass: module.icon_class,
    isActive: module.is_active,
    isDefault: module.is_default,
    createdTime: module.created_time,
    details,
  };
}

/**
 * Modules with records of their own: "Custom-module records"; the product's built-in modules
 * (projects, tasks, ...) have none on this API.
 */
export function hasRecords(module: Module): boolean {
  return !module.is_default && !module.is_trashed;
}
