/**
 * Records of custom modules (spec, "Custom-module records" and the record rows of "States and
 * transitions"): list, count, read, create, update, trash, restore, permanent delete and the
 * status timeline, under /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}. Only custom
 * modules have records; built-in modules answer 404.
 */
import type { ApiReply, Route } from '../http/types';
import type { EmulatorState } from '../state';
import { apiErrors } from '../http/apiError';
import { bodyObject, idString, readPage, pageInfo } from './common';
import { planEntity, type EntityPlan } from '../records/entityInput';
import { storedEntity, type EntityRow } from '../records/entityJson';
import { entityCount, entityFragment, entityPage, JSON_CONTENT_TYPE } from '../records/entityList';
import { prepared } from '../model/prepared';
import {
  recordScope,
  requireActiveModule,
  requireEntity,
  requireNotTrashed,
  type RecordScope,
} from '../records/recordScope';

export const RECORD_PREFIX = '/api/v3/portal/{portal_id}/{scope_path}/{module_api_name}';

/** Scopes exactly as the spec's table lists them (PATCH included: PMS.portals.CREATE). */
const READ = ['PMS.portals.READ'];
const CREATE = ['PMS.portals.CREATE'];
const UPDATE = ['PMS.portals.UPDATE'];
const DELETE = ['PMS.portals.DELETE'];

function entityReply(state: EmulatorState, scope: RecordScope, id: number, status = 200): ApiReply {
  const row = prepared(state.db, 'SELECT * FROM entities WHERE id = ?').get(id) as EntityRow;
  return {
    status,
    raw: `{"entity":${entityFragment(scope, row)}}`,
    contentType: JSON_CONTENT_TYPE,
  };
}

/** Runs one write transaction and tells the caches which module's records it touched. */
function write(state: EmulatorState, scope: RecordScope, change: () => void): void {
  const before = scope.caches.current();
  try {
    state.db.transaction(change)();
  } finally {
    scope.caches.afterOwnWrite(before, scope.module.id);
  }
}

function timelineRow(
  state: EmulatorState,
  entityId: number,
  from: number | null,
  to: number,
  by: string,
  at: string,
) {
  prepared(
    state.db,
    `INSERT INTO status_timeline (id, entity_id, from_status_id, to_status_id, changed_by, changed_time)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(state.nextId(), entityId, from, to, by, at);
}

function sameRecord(plan: EntityPlan, row: EntityRow): boolean {
  const current = storedEntity(row);
  return (
    plan.name === current.name &&
    plan.description === current.description &&
    plan.layoutId === current.layoutId &&
    plan.statusId === current.statusId &&
    plan.projectId === current.projectId &&
    plan.isExternal === current.isExternal &&
    plan.isClosed === (row.is_closed === 1) &&
    JSON.stringify(plan.custom) === JSON.stringify(current.custom)
  );
}

const list: Route = {
  method: 'GET',
  template: `${RECORD_PREFIX}/entities`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const scope = recordScope(state, request);
    return { raw: entityPage(state, scope, request.query), contentType: JSON_CONTENT_TYPE };
  },
};

const count: Route = {
  method: 'GET',
  // "the last path segment is the fixed numeric segment 20": a literal, so it beats {entity_id}.
  template: `${RECORD_PREFIX}/entities/20`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const scope = recordScope(state, request);
    return { body: { count: entityCount(state, scope, request.query) } };
  },
};

const read: Route = {
  method: 'GET',
  template: `${RECORD_PREFIX}/entities/{entity_id}`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const scope = recordScope(state, request);
    const row = requireEntity(state, scope, request.params.entity_id);
    return entityReply(state, scope, row.id);
  },
};

const create: Route = {
  method: 'POST',
  template: `${RECORD_PREFIX}/entities`,
  kind: 'api',
  scopes: CREATE,
  handle: (request, state) => {
    const scope = recordScope(state, request);
    requireActiveModule(scope);
    const plan = planEntity(bodyObject(request), {
      module: scope.module,
      portal: scope.portalMeta,
      scopeProjectId: scope.scopeProjectId,
    });
    const id = state.nextId();
    const now = state.nowIso();
    const owner = request.caller?.zpuid as string;
    write(state, scope, () => {
      prepared(
        state.db,
        `INSERT INTO entities (id, module_id, project_id, layout_id, status_id, name, description,
           is_closed, is_external, owner_zpuid, custom, created_time, last_updated_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        scope.module.id,
        plan.projectId,
        plan.layoutId,
        plan.statusId,
        plan.name,
        plan.description,
        plan.isClosed ? 1 : 0,
        plan.isExternal ? 1 : 0,
        owner,
        JSON.stringify(plan.custom),
        now,
        now,
      );
      timelineRow(state, id, null, plan.statusId, owner, now);
    });
    return entityReply(state, scope, id, 201);
  },
};

/**
 * A PATCH of one record by the user `byZpuid`, after its scope and record were found: the same
 * checks and write whether it came through the API or the admin surface's record change.
 */
export function patchEntity(
  state: EmulatorState,
  scope: RecordScope,
  row: EntityRow,
  body: Record<string, unknown>,
  byZpuid: string,
): ApiReply {
  requireActiveModule(scope);
  requireNotTrashed(row);
  const plan = planEntity(
    body,
    { module: scope.module, portal: scope.portalMeta, scopeProjectId: scope.scopeProjectId },
    storedEntity(row),
  );
  // Nothing to change is not an edit: last_updated_time stays.
  if (sameRecord(plan, row)) return entityReply(state, scope, row.id);
  const now = state.nowIso();
  write(state, scope, () => {
    prepared(
      state.db,
      `UPDATE entities SET project_id = ?, layout_id = ?, status_id = ?, name = ?, description = ?,
         is_closed = ?, is_external = ?, custom = ?, last_updated_time = ? WHERE id = ?`,
    ).run(
      plan.projectId,
      plan.layoutId,
      plan.statusId,
      plan.name,
      plan.description,
      plan.isClosed ? 1 : 0,
      plan.isExternal ? 1 : 0,
      JSON.stringify(plan.custom),
      now,
      row.id,
    );
    if (plan.statusChanged) {
      timelineRow(state, row.id, row.status_id, plan.statusId, byZpuid, now);
    }
  });
  return entityReply(state, scope, row.id);
}

const update: Route = {
  method: 'PATCH',
  template: `${RECORD_PREFIX}/entities/{entity_id}`,
  kind: 'api',
  scopes: CREATE,
  handle: (request, state) => {
    const scope = recordScope(state, request);
    const row = requireEntity(state, scope, request.params.entity_id);
    return patchEntity(state, scope, row, bodyObject(request), request.caller?.zpuid as string);
  },
};

/** Trash and restore are mirror images: each needs the record on the other side of the trash. */
function trashMove(action: 'trash' | 'restore'): Route {
  const toTrash = action === 'trash';
  return {
    method: 'POST',
    template: `${RECORD_PREFIX}/entities/{entity_id}/${action}`,
    kind: 'api',
    scopes: UPDATE,
    handle: (request, state) => {
      const scope = recordScope(state, request);
      const row = requireEntity(state, scope, request.params.entity_id);
      requireActiveModule(scope);
      if ((row.trashed_time !== null) === toTrash) {
        throw apiErrors.invalidParameter(
          toTrash
            ? `record ${row.id} is already in the trash.`
            : `record ${row.id} is not in the trash.`,
        );
      }
      write(state, scope, () => {
        prepared(state.db, 'UPDATE entities SET trashed_time = ? WHERE id = ?').run(
          toTrash ? state.nowIso() : null,
          row.id,
        );
      });
      return entityReply(state, scope, row.id);
    },
  };
}

const trash = trashMove('trash');
const restore = trashMove('restore');

const remove: Route = {
  method: 'DELETE',
  template: `${RECORD_PREFIX}/entities/{entity_id}`,
  kind: 'api',
  scopes: DELETE,
  handle: (request, state) => {
    const scope = recordScope(state, request);
    const row = requireEntity(state, scope, request.params.entity_id);
    requireActiveModule(scope);
    // The state table has only "in trash → DELETE → permanently removed".
    if (row.trashed_time === null) {
      throw apiErrors.invalidParameter(
        `record ${row.id} is not in the trash; trash it first (POST .../entities/${row.id}/trash), then delete it.`,
      );
    }
    write(state, scope, () => {
      // Comments and the status timeline go with it (ON DELETE CASCADE).
      prepared(state.db, 'DELETE FROM entities WHERE id = ?').run(row.id);
    });
    return { status: 204 };
  },
};

interface TimelineRow {
  id: number;
  from_status_id: number | null;
  to_status_id: number;
  changed_by: string;
  changed_time: string;
}

const timeline: Route = {
  method: 'GET',
  // "note singular `entity`".
  template: `${RECORD_PREFIX}/entity/{entity_id}/status-timeline`,
  kind: 'api',
  scopes: READ,
  handle: (request, state) => {
    const scope = recordScope(state, request);
    const row = requireEntity(state, scope, request.params.entity_id);
    const page = readPage(request.query);
    const total = (
      prepared(state.db, 'SELECT COUNT(*) AS n FROM status_timeline WHERE entity_id = ?').get(
        row.id,
      ) as { n: number }
    ).n;
    const rows = prepared(
      state.db,
      `SELECT id, from_status_id, to_status_id, changed_by, changed_time FROM status_timeline
       WHERE entity_id = ? ORDER BY changed_time, id LIMIT ? OFFSET ?`,
    ).all(row.id, page.perPage, page.offset) as TimelineRow[];
    const status = (id: number | null) => {
      if (id === null) return null;
      const found = scope.module.statuses.get(id);
      return {
        id: idString(id),
        name: found?.name ?? null,
        color: found?.color ?? null,
        is_closed_type: found?.closed ?? false,
      };
    };
    return {
      body: {
        status_timeline: rows.map((item) => {
          const user = scope.portalMeta.users.get(item.changed_by);
          return {
            id: idString(item.id),
            from_status: status(item.from_status_id),
            to_status: status(item.to_status_id),
            changed_by: {
              zpuid: item.changed_by,
              name: user?.name ?? null,
              email: user?.email ?? null,
            },
            changed_time: item.changed_time,
          };
        }),
        page_info: pageInfo(page, total),
      },
    };
  },
};

export const entityRoutes: Route[] = [
  list,
  count,
  read,
  create,
  update,
  trash,
  restore,
  remove,
  timeline,
];
