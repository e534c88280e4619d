/**
 * Comments on custom-module records (spec, "Comments on records"), under
 * .../{module_api_name}/entity/{entity_id}/{comment_segment}. The segment is "a fixed literal text
 * segment containing a space, used as-is": it comes from the configuration (default "record
 * comments"); clients send it percent-encoded and the router matches decoded segments.
 */
import type { Route } from '../http/types';
import type { EmulatorState } from '../state';
import { apiErrors } from '../http/apiError';
import { bodyObject, idString, pageInfo, parseId, readPage } from './common';
import { planComment, type CommentPlan } from '../records/commentInput';
import { parseSortBy } from '../records/entityQuery';
import { prepared } from '../model/prepared';
import {
  recordScope,
  requireEntity,
  requireNotTrashed,
  type RecordScope,
} from '../records/recordScope';
import { RECORD_PREFIX } from './entities';

/** "Scopes are PMS.custom_fields.<READ|CREATE|UPDATE|DELETE>". */
const READ = ['PMS.custom_fields.READ'];
const CREATE = ['PMS.custom_fields.CREATE'];
const UPDATE = ['PMS.custom_fields.UPDATE'];
const DELETE = ['PMS.custom_fields.DELETE'];

/** Comment fields a list can be sorted by; the default is oldest first. */
const COMMENT_SORT: Record<string, string> = {
  id: 'id',
  created_time: 'created_time',
  last_updated_time: 'last_updated_time',
};

interface CommentRow {
  id: number;
  entity_id: number;
  content: string;
  attachments: string;
  created_by: string;
  created_time: string;
  last_updated_time: string;
}

function attachmentsOf(row: CommentRow): string[] {
  try {
    const value: unknown = JSON.parse(row.attachments);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

function commentJson(scope: RecordScope, row: CommentRow) {
  const author = scope.portalMeta.users.get(row.created_by);
  return {
    id: idString(row.id),
    content: row.content,
    attachments: attachmentsOf(row).map((id) => ({ attachment_id: id })),
    created_by: { zpuid: row.created_by, name: author?.name ?? null, email: author?.email ?? null },
    created_time: row.created_time,
    last_updated_time: row.last_updated_time,
  };
}

function requireComment(state: EmulatorState, entityId: number, idText: string | undefined) {
  const id = parseId(idText, 'comment_id');
  const row = prepared(state.db, 'SELECT * FROM comments WHERE id = ? AND entity_id = ?').get(
    id,
    entityId,
  ) as CommentRow | undefined;
  if (!row) throw apiErrors.notFound(`Comment ${id}`);
  return row;
}

/** Comment writes do not change how records look or list: the record caches keep all. */
function write(state: EmulatorState, scope: RecordScope, change: () => void): void {
  const before = scope.caches.current();
  try {
    state.db.transaction(change)();
  } finally {
    scope.caches.afterOwnWrite(before, null);
  }
}

export function commentRoutes(commentSegment: string): Route[] {
  const base = `${RECORD_PREFIX}/entity/{entity_id}/${commentSegment}`;

  const list: Route = {
    method: 'GET',
    template: base,
    kind: 'api',
    scopes: READ,
    handle: (request, state) => {
      const scope = recordScope(state, request);
      const entity = requireEntity(state, scope, request.params.entity_id);
      const page = readPage(request.query);
      const sort = parseSortBy(request.query.get('sort_by'), {
        field: 'created_time',
        descending: false,
      });
      const column = Object.hasOwn(COMMENT_SORT, sort.field) ? COMMENT_SORT[sort.field] : undefined;
      if (!column) {
        throw apiErrors.invalidParameter(
          `sort_by: ${sort.field} is not a sortable comment field; fields: ${Object.keys(COMMENT_SORT).join(', ')}.`,
        );
      }
      const direction = sort.descending ? 'DESC' : 'ASC';
      const total = (
        prepared(state.db, 'SELECT COUNT(*) AS n FROM comments WHERE entity_id = ?').get(
          entity.id,
        ) as { n: number }
      ).n;
      const rows = prepared(
        state.db,
        `SELECT * FROM comments WHERE entity_id = ? ORDER BY ${column} ${direction}, id ${direction}
         LIMIT ? OFFSET ?`,
      ).all(entity.id, page.perPage, page.offset) as CommentRow[];
      return {
        body: {
          comments: rows.map((row) => commentJson(scope, row)),
          page_info: pageInfo(page, total),
        },
      };
    },
  };

  const read: Route = {
    method: 'GET',
    template: `${base}/{comment_id}`,
    kind: 'api',
    scopes: READ,
    handle: (request, state) => {
      const scope = recordScope(state, request);
      const entity = requireEntity(state, scope, request.params.entity_id);
      const row = requireComment(state, entity.id, request.params.comment_id);
      return { body: { comment: commentJson(scope, row) } };
    },
  };

  const create: Route = {
    method: 'POST',
    template: base,
    kind: 'api',
    scopes: CREATE,
    handle: (request, state) => {
      const scope = recordScope(state, request);
      const entity = requireEntity(state, scope, request.params.entity_id);
      requireNotTrashed(entity);
      const plan = planComment(bodyObject(request));
      const id = state.nextId();
      const now = state.nowIso();
      write(state, scope, () => {
        prepared(
          state.db,
          `INSERT INTO comments (id, entity_id, content, attachments, created_by, created_time, last_updated_time)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          id,
          entity.id,
          plan.content,
          JSON.stringify(plan.attachments),
          request.caller?.zpuid as string,
          now,
          now,
        );
      });
      return {
        status: 201,
        body: { comment: commentJson(scope, requireComment(state, entity.id, String(id))) },
      };
    },
  };

  const update: Route = {
    method: 'PATCH',
    template: `${base}/{comment_id}`,
    kind: 'api',
    scopes: UPDATE,
    handle: (request, state) => {
      const scope = recordScope(state, request);
      const entity = requireEntity(state, scope, request.params.entity_id);
      const row = requireComment(state, entity.id, request.params.comment_id);
      requireNotTrashed(entity);
      const current: CommentPlan = { content: row.content, attachments: attachmentsOf(row) };
      const plan = planComment(bodyObject(request), current);
      const changed =
        plan.content !== current.content ||
        JSON.stringify(plan.attachments) !== JSON.stringify(current.attachments);
      if (changed) {
        write(state, scope, () => {
          prepared(
            state.db,
            'UPDATE comments SET content = ?, attachments = ?, last_updated_time = ? WHERE id = ?',
          ).run(plan.content, JSON.stringify(plan.attachments), state.nowIso(), row.id);
        });
      }
      return {
        body: { comment: commentJson(scope, requireComment(state, entity.id, String(row.id))) },
      };
    },
  };

  const remove: Route = {
    method: 'DELETE',
    template: `${base}/{comment_id}`,
    kind: 'api',
    scopes: DELETE,
    handle: (request, state) => {
      const scope = recordScope(state, request);
      const entity = requireEntity(state, scope, request.params.entity_id);
      const row = requireComment(state, entity.id, request.params.comment_id);
      requireNotTrashed(entity);
      write(state, scope, () => {
        prepared(state.db, 'DELETE FROM comments WHERE id = ?').run(row.id);
      });
      return { status: 204 };
    },
  };

  const count: Route = {
    method: 'GET',
    // "entity/{entity_id}/commentscount (replaces the comment segment)".
    template: `${RECORD_PREFIX}/entity/{entity_id}/commentscount`,
    kind: 'api',
    scopes: READ,
    handle: (request, state) => {
      const scope = recordScope(state, request);
      const entity = requireEntity(state, scope, request.params.entity_id);
      const { n } = prepared(
        state.db,
        'SELECT COUNT(*) AS n FROM comments WHERE entity_id = ?',
      ).get(entity.id) as { n: number };
      return { body: { count: n } };
    },
  };

  return [list, read, create, update, remove, count];
}
