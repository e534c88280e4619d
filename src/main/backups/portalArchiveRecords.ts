/**
 * Records of the emulator's archive layout (portalArchiveFormat.ts) in the API's shape, so they
 * go through the same reading as a sync's (readEntity, mapRecord) and compare with the mirror
 * like with like. The archive keeps records as the service stores them (custom values by
 * api_name; multi-selects as option ids, users as zpuids: packages/emulator/README.md, "Custom
 * field storage"); a record as the API shows it carries its layout's custom fields, multi-selects
 * as option names and users as {zpuid, name}, and its closed flag from its status. users.json and
 * modules.json come before entities.json in the archive, so each record is read as it streams;
 * work_items.json before them names the projects records point at.
 */
import { isCustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import { isPrototypeKey } from '@portaldesk/portal-api/json/prototypeKey';

/** A JSON object (not an array, not null), as the archive's entries hold them. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : null);

interface FieldOfArchive {
  apiName: string;
  type: string;
  /** Option id → name (pick lists, multi-selects). */
  optionNames: Map<string, string>;
}

interface ModuleOfArchive {
  apiName: string;
  fields: Map<string, FieldOfArchive>;
  /** Layout id → its custom fields, in display order. */
  layouts: Map<string, FieldOfArchive[]>;
  /** Status id → closed type. */
  closed: Map<string, boolean>;
}

export interface ArchiveRecord {
  /** The record's module api name. */
  module: string;
  /** The record as the API would show it. */
  entity: Record<string, unknown>;
}

export class PortalArchiveRecords {
  private readonly users = new Map<string, string | null>();
  private readonly modules = new Map<string, ModuleOfArchive>();
  /** Project id → name (work_items.json): records name only their project's id. */
  private readonly projects = new Map<string, string>();

  /** One element of an entry; a record of entities.json comes back in the API's shape. */
  add(entry: string, element: unknown): ArchiveRecord | null {
    if (!isObject(element)) return null;
    if (entry === 'users.json') this.addUser(element);
    else if (entry === 'modules.json') this.addModule(element);
    else if (entry === 'work_items.json') this.addWorkItem(element);
    else if (entry === 'entities.json') return this.record(element);
    return null;
  }

  private addWorkItem(item: Record<string, unknown>): void {
    const name = text(item.name);
    if (item.module === 'projects' && item.id !== undefined && name !== null) {
      this.projects.set(String(item.id), name);
    }
  }

  private addUser(user: Record<string, unknown>): void {
    const zpuid = text(user.zpuid);
    if (!zpuid) return;
    const name = [text(user.first_name), text(user.last_name)].filter(Boolean).join(' ');
    this.users.set(zpuid, name === '' ? null : name);
  }

  private addModule(module: Record<string, unknown>): void {
    const apiName = text(module.api_name);
    if (!apiName) return;
    const fields = new Map<string, FieldOfArchive>();
    const byId = new Map<string, FieldOfArchive>();
    for (const field of Array.isArray(module.fields) ? module.fields : []) {
      if (!isObject(field) || field.is_default === true || !isCustomFieldType(field.field_type)) {
        continue;
      }
      const optionNames = new Map<string, string>();
      for (const option of Array.isArray(field.options) ? field.options : []) {
        if (isObject(option) && option.kind === 'custom_option' && text(option.value) !== null) {
          optionNames.set(String(option.id), option.value as string);
        }
      }
      // A field named like the prototype would become the record's prototype, not a value.
      if (isPrototypeKey(String(field.api_name))) continue;
      const read: FieldOfArchive = {
        apiName: String(field.api_name),
        type: field.field_type,
        optionNames,
      };
      fields.set(read.apiName, read);
      byId.set(String(field.id), read);
    }
    const layouts = new Map<string, FieldOfArchive[]>();
    for (const layout of Array.isArray(module.layouts) ? module.layouts : []) {
      if (!isObject(layout)) continue;
      const placed: FieldOfArchive[] = [];
      for (const section of Array.isArray(layout.sections) ? layout.sections : []) {
        if (!isObject(section)) continue;
        for (const at of Array.isArray(section.fields) ? section.fields : []) {
          const field = isObject(at) ? byId.get(String(at.field_id)) : undefined;
          if (field) placed.push(field);
        }
      }
      layouts.set(String(layout.id), placed);
    }
    const closed = new Map<string, boolean>();
    for (const status of Array.isArray(module.statuses) ? module.statuses : []) {
      if (isObject(status)) closed.set(String(status.id), status.is_closed_type === true);
    }
    this.modules.set(apiName, { apiName, fields, layouts, closed });
  }

  private userRef(zpuid: unknown) {
    return typeof zpuid === 'string' ? { zpuid, name: this.users.get(zpuid) ?? null } : null;
  }

  private shown(field: FieldOfArchive, stored: unknown): unknown {
    if (stored === undefined || stored === null) return null;
    switch (field.type) {
      case 'multi_select':
        return Array.isArray(stored)
          ? stored.flatMap((id) => {
              const name = field.optionNames.get(String(id));
              return name === undefined ? [] : [name];
            })
          : null;
      case 'user_pick_list':
        return this.userRef(stored);
      case 'multi_user':
        return Array.isArray(stored) ? stored.flatMap((zpuid) => this.userRef(zpuid) ?? []) : null;
      default:
        return stored;
    }
  }

  private record(row: Record<string, unknown>): ArchiveRecord | null {
    const moduleName = text(row.module);
    const module = moduleName ? this.modules.get(moduleName) : undefined;
    if (!module) return null;
    const status = isObject(row.status) ? String(row.status.id) : null;
    const layout = isObject(row.layout) ? String(row.layout.id) : null;
    const owner = isObject(row.owner) ? row.owner.zpuid : null;
    const entity: Record<string, unknown> = {
      id: row.id,
      name: row.name,
      description: row.description,
      status: status === null ? null : { id: status },
      layout: layout === null ? null : { id: layout },
      project: isObject(row.project)
        ? { id: String(row.project.id), name: this.projects.get(String(row.project.id)) ?? null }
        : null,
      owner: this.userRef(owner),
      is_closed:
        (status !== null ? module.closed.get(status) : undefined) ?? row.is_closed === true,
      is_external: row.is_external === true,
      created_time: row.created_time,
      last_updated_time: row.last_updated_time,
      trashed_time: row.trashed_time ?? null,
    };
    const stored = isObject(row.custom_fields) ? row.custom_fields : {};
    const fields = (layout !== null ? module.layouts.get(layout) : undefined) ?? [
      ...module.fields.values(),
    ];
    for (const field of fields) {
      if (Object.hasOwn(entity, field.apiName)) continue;
      entity[field.apiName] = this.shown(field, stored[field.apiName]);
    }
    return { module: module.apiName, entity };
  }
}
