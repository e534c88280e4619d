import type Database from 'better-sqlite3';
import type {
  RecordComment,
  RecordDetail,
  RecordsColumns,
  RecordsLayout,
  RecordsModule,
  RecordsPortal,
  RecordsStatus,
  RecordsUser,
  TimelineEntry,
  TrashedRecord,
} from '../../shared/ipc/areas/records';
import { TRASHED_LISTED_MAX } from '../../shared/ipc/areas/records';
import type { Mirror } from '../store/mirror/mirror';
import { recordFilterSetup } from '../store/mirror/recordFilterSetup';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import { storedRowAsQueued } from '../store/mirror/storedRowAsQueued';
import { moduleColumns } from './moduleColumns';
import { recordRow, type StoredRecordWithModule } from './recordRow';
import { recordsQueries as queries } from './recordsQueries';

interface StoredDetailRow extends StoredRecordWithModule {
  module_name: string;
  comments_synced_at: string | null;
}

const statusOf = (s: {
  id: string;
  name: string;
  color: string | null;
  isClosedType: number;
}): RecordsStatus => ({
  id: s.id,
  name: s.name,
  color: s.color,
  isClosedType: s.isClosedType === 1,
});

/**
 * What the records workspace reads from the mirror besides record windows and search (those are
 * the mirror's RecordQuery and RecordSearch): portals, modules with counts, a module's columns and
 * layouts, and one record's detail. Read-only.
 */
export class RecordsReader {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly counts = new Map<number, number>();
  private version = '';

  constructor(
    private readonly db: Database.Database,
    private readonly mirror: Mirror,
  ) {}

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Counts stay cached until anything is written (by this connection or another). */
  private refreshCounts(): void {
    const changes = this.statement(queries.dataVersion).pluck().get() as number;
    const version = `${changes}:${String(this.db.pragma('data_version', { simple: true }))}`;
    if (version === this.version) return;
    this.version = version;
    this.counts.clear();
  }

  portals(): RecordsPortal[] {
    const rows = this.statement(queries.portals).all() as (Omit<RecordsPortal, 'isDefault'> & {
      isDefault: number;
    })[];
    return rows.map((row) => ({ ...row, isDefault: row.isDefault === 1 }));
  }

  private requirePortal(portalId: string) {
    const portal = this.mirror.metadata.portal(portalId);
    if (!portal) {
      throw new RecordQueryError(
        `Portal ${portalId} is not in the local mirror. Nothing was read; choose another portal, or sync this one first.`,
      );
    }
    return portal;
  }

  modules(portalId: string): RecordsModule[] {
    this.requirePortal(portalId);
    this.refreshCounts();
    return this.mirror.metadata.modules(portalId).map((module) => {
      let records = this.counts.get(module.moduleKey);
      if (records === undefined) {
        records = this.statement(queries.moduleCount).pluck().get(module.moduleKey) as number;
        this.counts.set(module.moduleKey, records);
      }
      return {
        id: module.id,
        apiName: module.apiName,
        singularName: module.singularName,
        pluralName: module.pluralName,
        isActive: module.isActive === 1,
        builtIn: module.isDefault === 1,
        records,
      };
    });
  }

  private users(portalId: string): RecordsUser[] {
    return this.mirror.metadata
      .users(portalId)
      .map((u) => ({ zpuid: u.zpuid, name: u.name, email: u.email }));
  }

  private layouts(portalId: string, moduleId: string, keyOfField: Map<string, string>) {
    const layouts = this.statement(queries.layouts).all(portalId, moduleId) as {
      id: string;
      name: string;
      isDefault: number;
    }[];
    const sections = this.statement(queries.sections).all(portalId, moduleId) as {
      layoutId: string;
      id: string;
      name: string;
    }[];
    const placements = this.statement(queries.placements).all(portalId, moduleId) as {
      sectionId: string;
      fieldId: string;
    }[];
    return layouts.map((layout): RecordsLayout => ({
      id: layout.id,
      name: layout.name,
      isDefault: layout.isDefault === 1,
      sections: sections
        .filter((s) => s.layoutId === layout.id)
        .map((section) => ({
          id: section.id,
          name: section.name,
          fields: placements
            .filter((p) => p.sectionId === section.id)
            .flatMap((p) => {
              const key = keyOfField.get(p.fieldId);
              return key === undefined ? [] : [key];
            }),
        })),
    }));
  }

  columns(portalId: string, moduleId: string): RecordsColumns {
    const portal = this.requirePortal(portalId);
    if (this.mirror.metadata.moduleKey(portalId, moduleId) === undefined) {
      throw new RecordQueryError(
        `Module ${moduleId} of portal ${portalId} is not in the local mirror. Nothing was read; choose another module, or sync the portal first.`,
      );
    }
    const fields = this.mirror.metadata.fields(portalId, moduleId);
    // Named as queued renames leave them, as the lists and the record editor name them.
    const statuses = this.mirror.metadata.statusesAsQueued(portalId, moduleId);
    const options = this.mirror.metadata.moduleOptions(portalId, moduleId);
    const queued = this.mirror.metadata.optionsAsQueued(portalId, moduleId);
    const apiNames = new Map(fields.map((f) => [f.id, f.apiName]));
    const setup = recordFilterSetup(
      fields,
      statuses,
      options
        .filter((o) => o.kind === 'custom_option')
        .map((o) => ({
          fieldApiName: apiNames.get(o.fieldId) ?? '',
          valueId: o.valueId,
          value: o.value,
        })),
      queued.relabel,
    );
    // The filter's option choices as queued option changes leave them, as the editor offers them;
    // of a multi-select only those the mirror knows: one added here has a temporary id until it
    // is sent, and multi-selects are filtered by option id.
    const mirrored = new Set(options.map((o) => `${apiNames.get(o.fieldId)}\u0000${o.valueId}`));
    const multi = new Set(
      fields.filter((f) => f.fieldType === 'multi_select').map((f) => f.apiName),
    );
    const choices = new Map(
      [...queued.options].map(([apiName, list]) => [
        apiName,
        multi.has(apiName) ? list.filter((o) => mirrored.has(`${apiName}\u0000${o.id}`)) : list,
      ]),
    );
    // Fields named as queued renames leave them, deleted ones gone, as the record editor offers
    // them; the filters still compile against the mirror's (its records hold the values still).
    const queuedFields = this.mirror.metadata.fieldsAsQueued(portalId, moduleId);
    const columns = moduleColumns(queuedFields, choices, setup.fields);
    const shown = new Set(columns.map((c) => c.key));
    const keyOfField = new Map(
      queuedFields.filter((f) => shown.has(f.apiName)).map((f) => [f.id, f.apiName]),
    );
    return {
      portalId,
      moduleId,
      timeZone: portal.timeZone,
      fields: columns,
      statuses: statuses.map(statusOf),
      users: this.users(portalId),
      layouts: this.layouts(portalId, moduleId, keyOfField),
    };
  }

  /** The module's records in the recycle bin, most recently trashed first. */
  trashed(portalId: string, moduleId: string): TrashedRecord[] {
    this.columns(portalId, moduleId);
    return this.statement(queries.trashed).all(
      portalId,
      moduleId,
      TRASHED_LISTED_MAX,
    ) as TrashedRecord[];
  }

  /** Throws RecordQueryError when the record is not in the mirror. */
  detail(portalId: string, recordId: string): RecordDetail {
    const portal = this.requirePortal(portalId);
    const stored = this.statement(queries.record).get(portalId, recordId) as
      StoredDetailRow | undefined;
    if (!stored) {
      throw new RecordQueryError(
        `Record ${recordId} is not in the local mirror of portal ${portalId} (deleted since, or not pulled yet). Nothing was opened; sync the portal to bring it in.`,
      );
    }
    const edits = (
      this.statement(queries.editsOfRecord).all(portalId, recordId) as {
        field: string;
        value: string;
      }[]
    ).map((e) => ({ field: e.field, value: JSON.parse(e.value) as unknown }));
    const columns = this.columns(portalId, stored.module_id);
    const statuses = new Map(columns.statuses.map((s) => [s.id, s]));
    const users = new Map(columns.users.map((u) => [u.zpuid, u]));
    const { relabel } = this.mirror.metadata.optionsAsQueued(portalId, stored.module_id);
    const record = recordRow(storedRowAsQueued(stored, relabel), edits, statuses, users);
    const person = (zpuid: string | null): RecordsUser | null =>
      zpuid === null ? null : (users.get(zpuid) ?? { zpuid, name: null, email: null });
    const status = (id: string | null): RecordsStatus | null =>
      id === null ? null : (statuses.get(id) ?? { id, name: id, color: null, isClosedType: false });
    const timeline = this.mirror.comments
      .statusTimeline(portalId, recordId)
      .map((entry): TimelineEntry => ({
        id: entry.id,
        from: status(entry.fromStatusId),
        to: status(entry.toStatusId),
        changedBy: person(entry.changedBy),
        changedTime: entry.changedTime,
      }));
    const comments = this.mirror.comments
      .comments(portalId, recordId)
      .map((comment): RecordComment => ({
        id: comment.id,
        content: comment.content,
        author: person(comment.createdBy),
        createdTime: comment.createdTime,
        lastUpdatedTime: comment.lastUpdatedTime,
        attachmentIds: comment.attachmentIds,
      }));
    const layout =
      columns.layouts.find((l) => l.id === record.layoutId) ??
      columns.layouts.find((l) => l.isDefault) ??
      columns.layouts[0] ??
      null;
    return {
      record,
      trashedTime: stored.trashed_time,
      layout,
      timeline,
      comments,
      commentsSyncedAt: stored.comments_synced_at,
      timeZone: portal.timeZone,
    };
  }
}
