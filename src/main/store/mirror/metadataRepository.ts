import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import metadataSql from '../queries/mirrorMetadata.sql?raw';
import { namedStatements } from '../namedStatements';
import {
  writeChanges,
  type ChangeLog,
  type MirrorChanges,
  type MirrorTable,
} from './mirrorChanges';
import { replaceListed } from './replaceListed';
import {
  fieldsNamedAsQueued,
  optionsAsQueued,
  statusesNamedAsQueued,
  type OptionsAsQueued,
} from '../../outbox/catalogOverlay';
import type { OpFields, OpKind, OpState } from '../../outbox/outboxTypes';
import type {
  MirrorField,
  MirrorFieldOption,
  MirrorLayout,
  MirrorModule,
  MirrorPortal,
  MirrorSection,
  MirrorStatus,
  MirrorUser,
} from './mirrorTypes';

const queries = requireQueries(
  parseNamedQueries(metadataSql, 'mirrorMetadata.sql'),
  [
    'portalIdsOfAccount',
    'portalIdsIn',
    'upsertPortal',
    'deletePortal',
    'deletePortalsOfAccount',
    'portal',
    'userIdsIn',
    'upsertUser',
    'users',
    'moduleIds',
    'upsertModule',
    'deleteModule',
    'layoutsOfModule',
    'deleteModulesNotIn',
    'modules',
    'moduleKey',
    'layoutIds',
    'upsertLayout',
    'deleteLayoutsNotIn',
    'sectionIds',
    'upsertSection',
    'deleteSectionsNotIn',
    'placedFieldIds',
    'upsertPlacement',
    'deletePlacementsNotIn',
    'fieldIds',
    'upsertField',
    'deleteFieldsNotIn',
    'fields',
    'optionKeys',
    'upsertOption',
    'deleteOptionsNotIn',
    'moduleOptions',
    'statusIds',
    'upsertStatus',
    'deleteStatusesNotIn',
    'transitionsOf',
    'deleteTransitionsOf',
    'insertTransition',
    'statuses',
    'queuedStatusChanges',
    'queuedOptionChanges',
    'queuedFieldChanges',
    'deletePortalRoles',
    'insertPortalRole',
    'portalRoles',
    'rememberGoneModules',
    'forgetListedModules',
    'goneModule',
    'moduleNames',
  ] as const,
  'mirrorMetadata.sql',
);

type Query = keyof typeof queries;

const flag = (value: boolean): number => (value ? 1 : 0);

/** A queued status change as queuedStatusChanges reads it (its parameters as stored JSON). */
interface QueuedStatusChangeRow {
  kind: OpKind;
  action: string | null;
  state: OpState;
  fields: string;
}

/** A stored portal, as the query layer reads it. */
export interface StoredPortal extends Omit<MirrorPortal, 'details' | 'isDefault'> {
  isDefault: number;
  details: string;
}

export interface StoredModule extends Omit<MirrorModule, 'details' | 'isActive' | 'isDefault'> {
  moduleKey: number;
  isActive: number;
  isDefault: number;
  details: string;
}

export interface StoredField extends Omit<
  MirrorField,
  'fieldProperty' | 'isDefault' | 'isMandatory'
> {
  isDefault: number;
  isMandatory: number;
  fieldProperty: string;
}

export interface StoredOption extends MirrorFieldOption {
  fieldId: string;
}

export interface StoredStatus extends Omit<
  MirrorStatus,
  'transitions' | 'isClosedType' | 'isDefault'
> {
  isClosedType: number;
  isDefault: number;
}

export interface StoredUser {
  zpuid: string;
  name: string | null;
  email: string | null;
  status: string | null;
  inviteStatus: string | null;
  isTeamLead: number | null;
  reportsTo: string | null;
}

/**
 * Portals, people, modules, layouts, sections, fields, options and statuses. Lists the API
 * returns whole are written with `replace*`: upsert what is listed and delete what is not, in one
 * transaction (deleting a module also deletes its layouts, fields, statuses, records and cursors).
 */
export class MetadataRepository {
  private readonly statement: (name: Query) => Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.statement = namedStatements(db, queries);
  }

  private ids(name: Query, ...params: unknown[]): Set<string> {
    return new Set(
      this.statement(name)
        .pluck()
        .all(...params) as string[],
    );
  }

  private deleteNotIn(
    log: ChangeLog,
    table: MirrorTable,
    name: Query,
    scope: unknown[],
    keep: string[],
  ): void {
    const deleted = this.statement(name)
      .pluck()
      .all(...scope, JSON.stringify(keep)) as string[];
    log.add(table, 'deleted', deleted);
  }

  /** Upserts one row; `existing` says whether it was there before. */
  private upsert(
    log: ChangeLog,
    table: MirrorTable,
    name: Query,
    id: string,
    existing: Set<string>,
    row: Record<string, unknown>,
  ): void {
    const { changes } = this.statement(name).run(row);
    log.upserted(table, id, existing.has(id), changes > 0);
  }

  /** Portals upserted in the caller's transaction. */
  private upsertPortalsIn(log: ChangeLog, portals: readonly MirrorPortal[]): void {
    const now = new Date().toISOString();
    const existing = this.ids('portalIdsIn', JSON.stringify(portals.map((p) => p.id)));
    for (const portal of portals) {
      this.upsert(log, 'portals', 'upsertPortal', portal.id, existing, this.portalRow(portal, now));
    }
  }

  private portalRow(portal: MirrorPortal, now: string) {
    return {
      ...portal,
      isDefault: flag(portal.isDefault),
      details: JSON.stringify(portal.details),
      now,
    };
  }

  upsertPortals(portals: readonly MirrorPortal[]): MirrorChanges {
    return writeChanges(this.db, (log) => this.upsertPortalsIn(log, portals));
  }

  /**
   * The portals one account reaches in one data center: those listed are upserted, the account's
   * other portals there are deleted with everything mirrored of them.
   */
  replaceAccountPortals(
    accountId: string,
    dc: string,
    portals: readonly MirrorPortal[],
  ): MirrorChanges {
    return writeChanges(this.db, (log) => {
      this.upsertPortalsIn(log, portals);
      const listed = new Set(portals.map((p) => p.id));
      for (const id of this.ids('portalIdsOfAccount', accountId, dc)) {
        if (listed.has(id)) continue;
        this.statement('deletePortal').run(id);
        log.add('portals', 'deleted', [id]);
      }
    });
  }

  /**
   * Everything mirrored for an account (an account deleted with its local data), in the caller's
   * transaction when there is one.
   */
  deleteAccountPortals(accountId: string): void {
    this.statement('deletePortalsOfAccount').run(accountId);
  }

  portal(portalId: string): StoredPortal | undefined {
    return this.statement('portal').get(portalId) as StoredPortal | undefined;
  }

  upsertUsers(portalId: string, users: readonly MirrorUser[]): MirrorChanges {
    return writeChanges(this.db, (log) => this.upsertUsersIn(log, portalId, users));
  }

  /** For writers that add people inside their own transaction (a page of records). */
  upsertUsersIn(log: ChangeLog, portalId: string, users: readonly MirrorUser[]): void {
    if (users.length === 0) return;
    const existing = this.ids('userIdsIn', portalId, JSON.stringify(users.map((u) => u.zpuid)));
    for (const user of users) {
      this.upsert(log, 'portal_users', 'upsertUser', user.zpuid, existing, {
        portalId,
        zpuid: user.zpuid,
        name: user.name ?? null,
        email: user.email ?? null,
        status: user.status ?? null,
        inviteStatus: user.inviteStatus ?? null,
        isTeamLead:
          user.isTeamLead === undefined || user.isTeamLead === null ? null : flag(user.isTeamLead),
        reportsTo: user.reportsTo ?? null,
      });
    }
  }

  users(portalId: string): StoredUser[] {
    return this.statement('users').all(portalId) as StoredUser[];
  }

  replaceModules(portalId: string, modules: readonly MirrorModule[]): MirrorChanges {
    const listed = JSON.stringify(modules.map((module) => module.id));
    return writeChanges(this.db, (log) => {
      // A module the service no longer lists leaves the mirror; its name stays for the changes
      // of it still queued here, which must say which module went (modules_gone).
      this.statement('rememberGoneModules').run({ portalId, listed });
      this.statement('forgetListedModules').run({ portalId, listed });
      replaceListed(log, this.statement, {
        table: 'modules',
        existing: 'moduleIds',
        upsert: 'upsertModule',
        deleteNotIn: 'deleteModulesNotIn',
        scope: [portalId],
        items: modules,
        key: (module) => module.id,
        row: (module) => ({
          ...module,
          portalId,
          isActive: flag(module.isActive),
          isDefault: flag(module.isDefault),
          details: JSON.stringify(module.details),
        }),
      });
    });
  }

  /** A module a sync found gone from the service's list, by its names as last mirrored. */
  goneModule(
    portalId: string,
    moduleId: string,
  ): { id: string; apiName: string; pluralName: string } | undefined {
    return this.statement('goneModule').get(portalId, moduleId) as
      { id: string; apiName: string; pluralName: string } | undefined;
  }

  /**
   * A module's names as the changes of it queued here show them (the Outbox): the mirror's, else
   * the names kept when a sync found it gone (trashed or deleted on the service).
   */
  moduleNames(
    portalId: string,
    moduleId: string,
  ): { apiName: string; pluralName: string } | undefined {
    return this.statement('moduleNames').get({ portalId, moduleId }) as
      { apiName: string; pluralName: string } | undefined;
  }

  /**
   * Modules as the service just answered a configuration change (created, renamed, recovered):
   * upserted, the portal's others left as they are (a sync's `replaceModules` owns the list).
   */
  upsertModules(portalId: string, modules: readonly MirrorModule[]): MirrorChanges {
    return writeChanges(this.db, (log) => {
      // Listed by the service again (recovered from here): not gone.
      this.statement('forgetListedModules').run({
        portalId,
        listed: JSON.stringify(modules.map((module) => module.id)),
      });
      const existing = this.ids('moduleIds', portalId);
      for (const module of modules) {
        this.upsert(log, 'modules', 'upsertModule', module.id, existing, {
          ...module,
          portalId,
          isActive: flag(module.isActive),
          isDefault: flag(module.isDefault),
          details: JSON.stringify(module.details),
        });
      }
    });
  }

  /** A module's layouts (their own columns; sections and placements are read with the fields). */
  layouts(
    portalId: string,
    moduleId: string,
  ): { id: string; name: string; type: string; isDefault: number; referenceId: string | null }[] {
    return this.statement('layoutsOfModule').all(portalId, moduleId) as {
      id: string;
      name: string;
      type: string;
      isDefault: number;
      referenceId: string | null;
    }[];
  }

  /** Removes a module the service no longer lists (trashed or deleted from here), with its rows. */
  deleteModule(portalId: string, moduleId: string): MirrorChanges {
    return writeChanges(this.db, (log) => {
      const deleted = this.statement('deleteModule').pluck().all(portalId, moduleId) as string[];
      log.add('modules', 'deleted', deleted);
    });
  }

  modules(portalId: string): StoredModule[] {
    return this.statement('modules').all(portalId) as StoredModule[];
  }

  /** The local key of a mirrored module, or undefined. */
  moduleKey(portalId: string, moduleId: string): number | undefined {
    return this.statement('moduleKey').pluck().get(portalId, moduleId) as number | undefined;
  }

  replaceLayouts(
    portalId: string,
    moduleId: string,
    layouts: readonly MirrorLayout[],
  ): MirrorChanges {
    return writeChanges(this.db, (log) =>
      replaceListed(log, this.statement, {
        table: 'layouts',
        existing: 'layoutIds',
        upsert: 'upsertLayout',
        deleteNotIn: 'deleteLayoutsNotIn',
        scope: [portalId, moduleId],
        items: layouts,
        key: (layout) => layout.id,
        row: (layout) => ({ ...layout, portalId, moduleId, isDefault: flag(layout.isDefault) }),
      }),
    );
  }

  /** A layout's sections and where each field sits in them (`layout_fields` ids are field ids). */
  replaceSections(
    portalId: string,
    layoutId: string,
    sections: readonly MirrorSection[],
  ): MirrorChanges {
    return writeChanges(this.db, (log) => {
      const existing = this.ids('sectionIds', portalId, layoutId);
      const placed = this.ids('placedFieldIds', portalId, layoutId);
      const fieldIds: string[] = [];
      for (const section of sections) {
        this.upsert(log, 'sections', 'upsertSection', section.id, existing, {
          portalId,
          id: section.id,
          layoutId,
          name: section.name,
          position: section.position,
        });
      }
      // Placements after every section exists: a field may move to a section listed later.
      for (const section of sections) {
        for (const field of section.fields) {
          fieldIds.push(field.fieldId);
          this.upsert(log, 'layout_fields', 'upsertPlacement', field.fieldId, placed, {
            portalId,
            layoutId,
            fieldId: field.fieldId,
            sectionId: section.id,
            position: field.position,
          });
        }
      }
      this.deleteNotIn(
        log,
        'layout_fields',
        'deletePlacementsNotIn',
        [portalId, layoutId],
        fieldIds,
      );
      this.deleteNotIn(
        log,
        'sections',
        'deleteSectionsNotIn',
        [portalId, layoutId],
        sections.map((s) => s.id),
      );
    });
  }

  /**
   * A module's settings from one fields-configuration read, in one transaction: fields before
   * sections (a section's placements refer to stored fields), layouts, each layout's sections
   * (every layout listed, [] when it has none), statuses; each list replacing the stored one.
   */
  replaceFieldsConfiguration(
    portalId: string,
    moduleId: string,
    config: {
      fields: readonly MirrorField[];
      layouts: readonly MirrorLayout[];
      sections: ReadonlyMap<string, readonly MirrorSection[]>;
      statuses: readonly MirrorStatus[];
    },
  ): void {
    this.db.transaction(() => {
      this.replaceFields(portalId, moduleId, config.fields);
      this.replaceLayouts(portalId, moduleId, config.layouts);
      for (const [layoutId, sections] of config.sections) {
        this.replaceSections(portalId, layoutId, sections);
      }
      this.replaceStatuses(portalId, moduleId, config.statuses);
    })();
  }

  replaceFields(portalId: string, moduleId: string, fields: readonly MirrorField[]): MirrorChanges {
    return writeChanges(this.db, (log) =>
      replaceListed(log, this.statement, {
        table: 'fields',
        existing: 'fieldIds',
        upsert: 'upsertField',
        deleteNotIn: 'deleteFieldsNotIn',
        scope: [portalId, moduleId],
        items: fields,
        key: (field) => field.id,
        row: (field) => ({
          ...field,
          portalId,
          moduleId,
          isDefault: flag(field.isDefault),
          isMandatory: flag(field.isMandatory),
          fieldProperty: JSON.stringify(field.fieldProperty),
        }),
      }),
    );
  }

  fields(portalId: string, moduleId: string): StoredField[] {
    return this.statement('fields').all(portalId, moduleId) as StoredField[];
  }

  /** A field's options; ids in the changes are `kind:value_id` (e.g. `custom_option:1234`). */
  replaceFieldOptions(
    portalId: string,
    fieldId: string,
    options: readonly MirrorFieldOption[],
  ): MirrorChanges {
    return writeChanges(this.db, (log) =>
      replaceListed(log, this.statement, {
        table: 'field_options',
        existing: 'optionKeys',
        upsert: 'upsertOption',
        deleteNotIn: 'deleteOptionsNotIn',
        scope: [portalId, fieldId],
        items: options,
        key: (option) => `${option.kind}:${option.valueId}`,
        row: (option) => ({ ...option, portalId, fieldId }),
      }),
    );
  }

  moduleOptions(portalId: string, moduleId: string): StoredOption[] {
    return this.statement('moduleOptions').all(portalId, moduleId) as StoredOption[];
  }

  /** A module's statuses with their transitions; a status whose transitions changed is updated. */
  replaceStatuses(
    portalId: string,
    moduleId: string,
    statuses: readonly MirrorStatus[],
  ): MirrorChanges {
    return writeChanges(this.db, (log) => {
      const existing = this.ids('statusIds', portalId, moduleId);
      for (const status of statuses) {
        const { changes } = this.statement('upsertStatus').run({
          portalId,
          moduleId,
          id: status.id,
          name: status.name,
          color: status.color,
          isClosedType: flag(status.isClosedType),
          isDefault: flag(status.isDefault),
          position: status.position,
        });
        const before = [...this.ids('transitionsOf', portalId, status.id)].sort();
        const after = [...new Set(status.transitions)].sort();
        const moved = before.join('\u0000') !== after.join('\u0000');
        if (moved) {
          this.statement('deleteTransitionsOf').run(portalId, status.id);
          for (const to of after) this.statement('insertTransition').run(portalId, status.id, to);
        }
        log.upserted('statuses', status.id, existing.has(status.id), changes > 0 || moved);
      }
      this.deleteNotIn(
        log,
        'statuses',
        'deleteStatusesNotIn',
        [portalId, moduleId],
        statuses.map((s) => s.id),
      );
    });
  }

  statuses(portalId: string, moduleId: string): StoredStatus[] {
    return this.statement('statuses').all(portalId, moduleId) as StoredStatus[];
  }

  /**
   * The module's statuses named as its queued status changes leave them (a rename not delivered
   * yet shows its new name): what the records workspace reads. The set, order and closed types
   * are the mirror's (statusesNamedAsQueued).
   */
  statusesAsQueued(portalId: string, moduleId: string): StoredStatus[] {
    const ops = (
      this.statement('queuedStatusChanges').all(portalId, moduleId) as QueuedStatusChangeRow[]
    ).map((row) => ({ ...row, fields: JSON.parse(row.fields) as OpFields }));
    return statusesNamedAsQueued(this.statuses(portalId, moduleId), ops);
  }

  /**
   * The module's fields as its queued field changes leave them: renamed ones by their new name,
   * deleted ones left out (fieldsNamedAsQueued), as the record editor offers them: what the
   * records workspace's columns, filter fields and record panel read.
   */
  fieldsAsQueued(portalId: string, moduleId: string): StoredField[] {
    const ops = (
      this.statement('queuedFieldChanges').all(portalId, moduleId) as {
        action: string;
        fields: string;
      }[]
    ).map((row) => ({ action: row.action, fields: JSON.parse(row.fields) as OpFields }));
    return fieldsNamedAsQueued(this.fields(portalId, moduleId), ops);
  }

  /**
   * The module's pick-list and multi-select options as its queued option changes leave them, and
   * the names its records hold → the names they will hold (optionsAsQueued): what the records
   * workspace reads. A field's options listed per layout count once.
   */
  optionsAsQueued(portalId: string, moduleId: string): OptionsAsQueued {
    const options = this.moduleOptions(portalId, moduleId);
    const fields = this.fields(portalId, moduleId)
      .filter((f) => f.fieldType === 'pick_list' || f.fieldType === 'multi_select')
      .map((f) => {
        const own = new Map<string, string>();
        for (const o of options) {
          if (o.fieldId === f.id && o.kind === 'custom_option' && o.value !== null) {
            if (!own.has(o.valueId)) own.set(o.valueId, o.value);
          }
        }
        return {
          fieldId: f.id,
          apiName: f.apiName,
          options: [...own].map(([id, name]) => ({ id, name })),
        };
      });
    const ops = (
      this.statement('queuedOptionChanges').all(portalId, moduleId) as {
        action: string;
        fields: string;
      }[]
    ).map((row) => ({ action: row.action, fields: JSON.parse(row.fields) as OpFields }));
    return optionsAsQueued(fields, ops);
  }

  /**
   * The roles a portal's user fields may be limited to, as the service named them when it last
   * listed a user field's options (replaced whole; an empty list leaves the stored ones).
   */
  replacePortalRoles(portalId: string, roles: readonly { id: string; name: string | null }[]) {
    if (roles.length === 0) return;
    this.db.transaction(() => {
      this.statement('deletePortalRoles').run(portalId);
      roles.forEach((role, position) =>
        this.statement('insertPortalRole').run({
          portalId,
          id: role.id,
          name: role.name,
          position,
        }),
      );
    })();
  }

  portalRoles(portalId: string): { id: string; name: string | null }[] {
    return this.statement('portalRoles').all(portalId) as { id: string; name: string | null }[];
  }
}
