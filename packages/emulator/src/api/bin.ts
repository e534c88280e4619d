/**
 * The recycle bin of the built-in trashable modules (projects, phases, tasklists, tasks, issues):
 * list, trash, permanent delete, restore within 30 days, and empty. Custom-module records have
 * their own trash under .../entities and are not listed here.
 */
import { checkDelete, checkRestore, checkTrash } from '../bin/binChecks';
import {
  canRestore,
  parseBatch,
  parseBatchList,
  parseBinFilter,
  parseBinSort,
  restoreDeadlineMs,
  type Batch,
} from '../bin/binRules';
import {
  binRows,
  deletePermanently,
  groupByModule,
  listBin,
  loadParents,
  loadWorkItems,
  resolveTrashableModule,
  restoreItems,
  trashedIds,
  trashItems,
  type BinRow,
} from '../bin/binStore';
import type { ApiRequest, Route } from '../http/types';
import type { EmulatorState } from '../state';
import {
  idString,
  pageInfo,
  queryJson,
  readPage,
  requirePortal,
  userSummary,
  type PortalRow,
} from './common';

const READ = ['PMS.portals.READ'] as const;
const CREATE = ['PMS.portals.CREATE'] as const;

function binItemView(state: EmulatorState, row: BinRow, nowMs: number) {
  return {
    id: String(row.id),
    name: row.name,
    module: row.module,
    project:
      row.project_id === null ? null : { id: idString(row.project_id), name: row.project_name },
    trashed_time: row.trashed_time,
    trashed_by: userSummary(state, row.trashed_by),
    restorable_until: new Date(restoreDeadlineMs(row.trashed_time)).toISOString(),
    is_restorable: canRestore(row.trashed_time, nowMs),
  };
}

function batchesOf(state: EmulatorState, portal: PortalRow, request: ApiRequest): Batch[] {
  return parseBatchList(request.json(), (text) =>
    resolveTrashableModule(state.db, portal.id, text),
  );
}

export const binRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v3/portal/{portal_id}/bin',
    kind: 'api',
    scopes: READ,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const page = readPage(request.query);
      const sort = parseBinSort(request.query.get('sort_by'));
      const filter = parseBinFilter(queryJson(request.query, 'filter'));
      const { rows, total } = listBin(state.db, portal.id, filter, sort, page);
      const now = state.clock.now();
      return {
        body: {
          bin_items: rows.map((row) => binItemView(state, row, now)),
          page_info: pageInfo(page, total),
        },
      };
    },
  },
  {
    method: 'POST',
    template: '/api/v3/portal/{portal_id}/trash',
    kind: 'api',
    scopes: CREATE,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const batch = parseBatch(request.json() ?? {}, '', (text) =>
        resolveTrashableModule(state.db, portal.id, text),
      );
      const rows = loadWorkItems(state.db, portal.id, batch.ids);
      checkTrash(batch, rows, loadParents(state.db, portal.id, rows.values()), portal.id);
      const nowIso = state.nowIso();
      state.db.transaction(() => {
        trashItems(state.db, batch.ids, nowIso, request.caller?.zpuid ?? '');
      })();
      const now = state.clock.now();
      return {
        body: {
          bin_items: binRows(state.db, portal.id, batch.ids).map((row) =>
            binItemView(state, row, now),
          ),
        },
      };
    },
  },
  {
    method: 'DELETE',
    template: '/api/v3/portal/{portal_id}/bin',
    kind: 'api',
    scopes: CREATE,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const batches = batchesOf(state, portal, request);
      const rows = loadWorkItems(
        state.db,
        portal.id,
        batches.flatMap((batch) => batch.ids),
      );
      batches.forEach((batch, index) =>
        checkDelete(batch, rows, portal.id, `body[${index}].items`),
      );
      const deleted = state.db.transaction(() =>
        deletePermanently(state.db, portal.id, rows.keys()),
      )();
      return { body: { deleted } };
    },
  },
  {
    method: 'POST',
    template: '/api/v3/portal/{portal_id}/bin/restore',
    kind: 'api',
    scopes: CREATE,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const batches = batchesOf(state, portal, request);
      const rows = loadWorkItems(
        state.db,
        portal.id,
        batches.flatMap((batch) => batch.ids),
      );
      const parents = loadParents(state.db, portal.id, rows.values());
      const restoringProjects = new Set(
        batches.filter((batch) => batch.module === 'projects').flatMap((batch) => batch.ids),
      );
      const now = state.clock.now();
      batches.forEach((batch, index) =>
        checkRestore(
          batch,
          rows,
          parents,
          restoringProjects,
          portal.id,
          now,
          `body[${index}].items`,
        ),
      );
      state.db.transaction(() => restoreItems(state.db, rows.keys()))();
      return { body: { restored: groupByModule([...rows.values()]) } };
    },
  },
  {
    method: 'DELETE',
    template: '/api/v3/portal/{portal_id}/empty-bin',
    kind: 'api',
    scopes: CREATE,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      // "no payload": a body, if any, is ignored.
      const deleted = state.db.transaction(() =>
        deletePermanently(state.db, portal.id, trashedIds(state.db, portal.id)),
      )();
      return { body: { deleted } };
    },
  },
];
