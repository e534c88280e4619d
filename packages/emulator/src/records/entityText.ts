/**
 * A record's JSON text written straight from its row: exactly `JSON.stringify(entityJson(row,
 * module, portal))` (entityJson.ts stays the definition, and a property test holds the two
 * equal), without building the object first. A full pull serializes every record once, and in
 * profiles the object and its generic stringify were a third of the emulator's CPU per list page.
 *
 * The texts that depend only on a module's or a portal's metadata (a status, a layout, an owner,
 * a project, the keys of a layout's custom fields) are made once per metadata object: they live
 * in WeakMaps keyed by the ModuleMeta and PortalMeta the record caches hold, so they go when the
 * caches rebuild those (recordCache.ts) and have no invalidation of their own.
 */
import { READ_ENTITY_FIXED_FIELDS } from '@portaldesk/portal-api/domain/readEntity';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';
import { entityJson, shownValue, type EntityRow } from './entityJson';
import { layoutFields, type FieldMeta, type ModuleMeta, type PortalMeta } from './recordMeta';

/**
 * The record's own keys, in entityJson's order (the same as the API reader's fixed members, which
 * the property test of entityText holds it to): a custom field of the same name is not shown.
 */
const SYSTEM_KEYS = READ_ENTITY_FIXED_FIELDS;

interface CustomKey {
  field: FieldMeta;
  /** `,"api_name":` */
  prefix: string;
}

/**
 * The custom keys a layout shows, or null where writing them in order would not give
 * JSON.stringify's order or keys: a key of digits only (an object lists those first, by value)
 * and `__proto__` (an assignment sets the prototype instead of a key). Those take the object path.
 */
function customKeys(fields: readonly FieldMeta[]): CustomKey[] | null {
  const seen = new Set<string>(SYSTEM_KEYS);
  const keys: CustomKey[] = [];
  for (const field of fields) {
    const name = field.apiName;
    if (/^\d+$/.test(name) || name === '__proto__') return null;
    if (seen.has(name)) continue;
    seen.add(name);
    keys.push({ field, prefix: `,${JSON.stringify(name)}:` });
  }
  return keys;
}

interface ModuleTexts {
  statuses: Map<number, { text: string; closed: boolean | undefined }>;
  layouts: Map<number, string>;
  keys: Map<number, CustomKey[] | null>;
}

interface PortalTexts {
  owners: Map<string, string>;
  projects: Map<number, string>;
}

const moduleTexts = new WeakMap<ModuleMeta, ModuleTexts>();
const portalTexts = new WeakMap<PortalMeta, PortalTexts>();

function textsOfModule(module: ModuleMeta): ModuleTexts {
  let texts = moduleTexts.get(module);
  if (!texts) {
    texts = { statuses: new Map(), layouts: new Map(), keys: new Map() };
    moduleTexts.set(module, texts);
  }
  return texts;
}

function textsOfPortal(portal: PortalMeta): PortalTexts {
  let texts = portalTexts.get(portal);
  if (!texts) {
    texts = { owners: new Map(), projects: new Map() };
    portalTexts.set(portal, texts);
  }
  return texts;
}

const json = (value: unknown): string => JSON.stringify(value) as string;

function statusOf(texts: ModuleTexts, module: ModuleMeta, statusId: number) {
  let found = texts.statuses.get(statusId);
  if (!found) {
    const status = module.statuses.get(statusId);
    found = {
      text: `{"id":${json(String(statusId))},"name":${json(status?.name ?? null)},"color":${json(status?.color ?? null)},"is_closed_type":${json(status?.closed ?? false)}}`,
      closed: status?.closed,
    };
    texts.statuses.set(statusId, found);
  }
  return found;
}

function layoutOf(texts: ModuleTexts, module: ModuleMeta, layoutId: number): string {
  let text = texts.layouts.get(layoutId);
  if (text === undefined) {
    text = `{"id":${json(String(layoutId))},"name":${json(module.layouts.get(layoutId)?.name ?? null)}}`;
    texts.layouts.set(layoutId, text);
  }
  return text;
}

function keysOf(texts: ModuleTexts, module: ModuleMeta, layoutId: number): CustomKey[] | null {
  let keys = texts.keys.get(layoutId);
  if (keys === undefined) {
    keys = customKeys(layoutFields(module, layoutId));
    texts.keys.set(layoutId, keys);
  }
  return keys;
}

function ownerOf(texts: PortalTexts, portal: PortalMeta, zpuid: string): string {
  let text = texts.owners.get(zpuid);
  if (text === undefined) {
    const owner = portal.users.get(zpuid);
    text = `{"zpuid":${json(zpuid)},"name":${json(owner?.name ?? null)},"email":${json(owner?.email ?? null)}}`;
    texts.owners.set(zpuid, text);
  }
  return text;
}

function projectOf(texts: PortalTexts, portal: PortalMeta, projectId: number | null): string {
  if (projectId === null) return 'null';
  let text = texts.projects.get(projectId);
  if (text === undefined) {
    text = `{"id":${json(String(projectId))},"name":${json(portal.projects.get(projectId)?.name ?? null)}}`;
    texts.projects.set(projectId, text);
  }
  return text;
}

/** `JSON.stringify(entityJson(row, module, portal))`, written directly. */
export function entityText(row: EntityRow, module: ModuleMeta, portal: PortalMeta): string {
  const mt = textsOfModule(module);
  const keys = keysOf(mt, module, row.layout_id);
  if (keys === null) return json(entityJson(row, module, portal));
  const pt = textsOfPortal(portal);
  const status = statusOf(mt, module, row.status_id);
  const closed = status.closed ?? row.is_closed === 1;
  let text =
    `{"id":${json(String(row.id))},"name":${json(row.name)},"description":${json(row.description)}` +
    `,"status":${status.text},"layout":${layoutOf(mt, module, row.layout_id)}` +
    `,"project":${projectOf(pt, portal, row.project_id)},"owner":${ownerOf(pt, portal, row.owner_zpuid)}` +
    `,"is_closed":${closed},"is_external":${row.is_external === 1}` +
    `,"created_time":${json(row.created_time)},"last_updated_time":${json(row.last_updated_time)}` +
    `,"trashed_time":${json(row.trashed_time)}`;
  if (keys.length > 0) {
    const custom = parseJsonObject(row.custom);
    for (const key of keys) {
      const value: unknown = JSON.stringify(
        shownValue(key.field, custom[key.field.apiName], portal),
      );
      // What JSON.stringify leaves out of an object (a function, say) it leaves out here too.
      if (value !== undefined) text += key.prefix + (value as string);
    }
  }
  return `${text}}`;
}
