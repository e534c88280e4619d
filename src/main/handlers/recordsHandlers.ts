import type Database from 'better-sqlite3';
import type { RecordsColumns } from '../../shared/ipc/areas/records';
import type { FilterField } from '@portaldesk/portal-api/filter';
import { UserFacingError, type Handlers } from '../bridge/dispatcher';
import { RecentRecords } from '../records/recentRecords';
import { RecordsReader } from '../records/recordsReader';
import { SavedFilters } from '../records/savedFilters';
import type { Mirror } from '../store/mirror/mirror';
import type { RecordQueryInput } from '../store/mirror/recordQuery';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import { userFacingFor } from './userFacing';

/** Hits one search returns when the caller does not say (a screenful of results). */
export const DEFAULT_SEARCH_HITS = 50;

type RecordsRequest =
  | 'records.portals'
  | 'records.modules'
  | 'records.columns'
  | 'records.query'
  | 'records.ids'
  | 'records.rows'
  | 'records.listed'
  | 'records.get'
  | 'records.trashed'
  | 'records.search'
  | 'records.savedFilters'
  | 'records.saveFilter'
  | 'records.deleteFilter'
  | 'records.recent'
  | 'records.viewed';

/** A list window as the mirror's RecordQuery takes it (absent filter and sort left out). */
function windowInput(args: {
  portalId: string;
  moduleId: string;
  offset: number;
  limit: number;
  filter?: string | undefined;
  sort?: RecordQueryInput['sort'] | undefined;
}): RecordQueryInput {
  return {
    portalId: args.portalId,
    moduleId: args.moduleId,
    offset: args.offset,
    limit: args.limit,
    ...(args.filter === undefined ? {} : { filter: args.filter }),
    ...(args.sort === undefined ? {} : { sort: args.sort }),
  };
}

/** A backup open for browsing: its snapshot database and the mirror over it (read-only). */
export interface SnapshotSource {
  reading(backupId: string): { db: Database.Database; mirror: Mirror } | undefined;
}

export interface RecordsHandlerDeps {
  db: Database.Database;
  mirror: Mirror;
  /** Backups opened for browsing; absent: no request may name one. */
  snapshots?: SnapshotSource;
  /**
   * Queued configuration changes of a portal's modules (names, active), laid over the live
   * mirror's navigation as record edits are over its rows; absent: the mirror as it is.
   */
  moduleOverlay?: (portalId: string) => ReadonlyMap<string, ModuleShown>;
  now?: () => number;
}

/** What the navigation shows of a module with its queued changes. */
export interface ModuleShown {
  singularName: string;
  pluralName: string;
  isActive: boolean;
}

interface Source {
  reader: RecordsReader;
  mirror: Mirror;
}

/** The filter language's field catalog of a module, as the mirror filters it. */
export function filterFieldsOf(columns: RecordsColumns): FilterField[] {
  return columns.fields.flatMap((field) =>
    field.filterKind === null
      ? []
      : [{ name: field.key, kind: field.filterKind, label: field.label }],
  );
}

/** The mirror's refusals are written for the user: pass them on as they are. */
const userFacing = userFacingFor(RecordQueryError);

/** The records workspace: read-only over the mirror, plus saved filters and recent records. */
export function recordsHandlers(deps: RecordsHandlerDeps): Pick<Handlers, RecordsRequest> {
  const reader = new RecordsReader(deps.db, deps.mirror);
  const live: Source = { reader, mirror: deps.mirror };
  const saved = new SavedFilters(deps.db, deps.now);
  const recent = new RecentRecords(deps.db, deps.now);
  // One reader per open snapshot (its prepared statements belong to that connection).
  const snapshotReaders = new WeakMap<Mirror, Source>();
  /** The live mirror, or the snapshot of the backup a request names. */
  const sourceOf = (snapshot: string | undefined): Source => {
    if (snapshot === undefined) return live;
    const open = deps.snapshots?.reading(snapshot);
    if (!open) {
      throw new UserFacingError(
        'This backup is no longer open for browsing (closed, or PortalDesk restarted). Open it again from Backups.',
      );
    }
    let source = snapshotReaders.get(open.mirror);
    if (!source) {
      source = { reader: new RecordsReader(open.db, open.mirror), mirror: open.mirror };
      snapshotReaders.set(open.mirror, source);
    }
    return source;
  };
  return {
    'records.portals': userFacing(() => reader.portals()),
    'records.modules': userFacing(({ portalId, snapshot }) => {
      const modules = sourceOf(snapshot).reader.modules(portalId);
      if (snapshot !== undefined || !deps.moduleOverlay) return modules;
      const shown = deps.moduleOverlay(portalId);
      return modules.map((module) => {
        const queued = shown.get(module.id);
        return queued ? { ...module, ...queued } : module;
      });
    }),
    'records.columns': userFacing(({ portalId, moduleId, snapshot }) =>
      sourceOf(snapshot).reader.columns(portalId, moduleId),
    ),
    'records.query': userFacing((args) =>
      sourceOf(args.snapshot).mirror.query.queryRecords(windowInput(args)),
    ),
    'records.ids': userFacing((args) =>
      sourceOf(args.snapshot).mirror.query.listIds(windowInput(args)),
    ),
    'records.rows': userFacing(({ portalId, moduleId, ids, snapshot }) =>
      sourceOf(snapshot).mirror.query.rowsOfIds({ portalId, moduleId }, ids),
    ),
    'records.listed': userFacing(({ portalId, moduleId, filter, ids, snapshot }) =>
      sourceOf(snapshot).mirror.query.listedAmong(
        { portalId, moduleId, ...(filter === undefined ? {} : { filter }) },
        ids,
      ),
    ),
    'records.get': userFacing(({ portalId, recordId, snapshot }) =>
      sourceOf(snapshot).reader.detail(portalId, recordId),
    ),
    'records.trashed': userFacing(({ portalId, moduleId, snapshot }) =>
      sourceOf(snapshot).reader.trashed(portalId, moduleId),
    ),
    'records.search': userFacing(({ portalId, text, moduleId, limit, snapshot }) => {
      const source = sourceOf(snapshot);
      const modules = new Map(source.reader.modules(portalId).map((m) => [m.id, m.pluralName]));
      const hits = source.mirror.search.search({
        portalId,
        text,
        limit: limit ?? DEFAULT_SEARCH_HITS,
        ...(moduleId === undefined ? {} : { moduleId }),
      });
      return hits.map((hit) => ({ ...hit, module: modules.get(hit.moduleId) ?? hit.moduleId }));
    }),
    'records.savedFilters': userFacing(({ portalId, moduleId }) => {
      reader.columns(portalId, moduleId);
      return saved.list(portalId, moduleId);
    }),
    'records.saveFilter': userFacing((args) =>
      saved.save(args, filterFieldsOf(reader.columns(args.portalId, args.moduleId))),
    ),
    'records.deleteFilter': userFacing(({ portalId, moduleId, id }) =>
      saved.delete(portalId, moduleId, id),
    ),
    'records.recent': userFacing(({ portalId }) => recent.list(portalId)),
    'records.viewed': userFacing(({ portalId, recordId }) => recent.viewed(portalId, recordId)),
  };
}
