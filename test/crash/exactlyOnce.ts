/**
 * The crash harness's verdict on a replay: did every queued operation reach the service exactly
 * once? Pure: the operations, the emulator's count of applied writes (`writes_applied`, the
 * harness's own writes taken out) and what the server holds afterwards.
 */
import type { QueuedOp } from './childJob';
import type { ServerRecord } from './compareMirror';

/** A queued operation and the api name of its record's module. */
export type PlannedOp = QueuedOp & { module: string };

export interface ServerAfter {
  /** Listed records by `portalId/module`. */
  records: ReadonlyMap<string, readonly ServerRecord[]>;
  /** Comment contents by `portalId/recordId`. */
  comments: ReadonlyMap<string, readonly string[]>;
}

export const entitiesPath = (portalId: string, module: string) =>
  `/api/v3/portal/${portalId}/projects/${module}/entities`;

/** The comments path as the emulator sees it: the segment's space stays encoded. */
export const commentsPath = (portalId: string, module: string, recordId: string) =>
  `/api/v3/portal/${portalId}/projects/${module}/entity/${recordId}/record%20comments`;

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Every operation not delivered exactly once, in words; [] when all were. */
export function deliveryProblems(
  ops: readonly PlannedOp[],
  applied: Readonly<Record<string, number>>,
  server: ServerAfter,
): string[] {
  const problems: string[] = [];
  const writes = (key: string) => applied[key] ?? 0;
  for (const op of ops) {
    if (op.kind === 'edit') {
      const key = `PATCH ${entitiesPath(op.portalId, op.module)}/${op.recordId}`;
      if (writes(key) !== 1) problems.push(`edit of ${op.recordId}: applied ${writes(key)} times`);
      const record = server.records
        .get(`${op.portalId}/${op.module}`)
        ?.find((r) => r.id === op.recordId);
      for (const [field, value] of Object.entries(op.changes)) {
        const held = record?.[field];
        if (held !== value) {
          problems.push(
            `edit of ${op.recordId}: ${field} is ${JSON.stringify(held)}, not ${value}`,
          );
        }
      }
    } else if (op.kind === 'create') {
      const named = (server.records.get(`${op.portalId}/${op.module}`) ?? []).filter(
        (r) => r.name === op.values.name,
      );
      if (named.length !== 1) problems.push(`create "${op.values.name}": ${named.length} records`);
    } else {
      const held = server.comments.get(`${op.portalId}/${op.recordId}`) ?? [];
      const copies = held.filter((content) => content === op.content).length;
      if (copies !== 1) problems.push(`comment "${op.content}": ${copies} copies`);
    }
  }
  // Each create and each comment is one POST: as many applied as queued, no more.
  const creates = countBy(
    ops.filter((op) => op.kind === 'create'),
    (op) => `POST ${entitiesPath(op.portalId, op.module)}`,
  );
  for (const [key, queued] of creates) {
    if (writes(key) !== queued) problems.push(`${key}: ${writes(key)} applied, ${queued} queued`);
  }
  const comments = countBy(
    ops.filter((op) => op.kind === 'comment'),
    (op) => `POST ${commentsPath(op.portalId, op.module, op.recordId)}`,
  );
  for (const [key, queued] of comments) {
    if (writes(key) !== queued) problems.push(`${key}: ${writes(key)} applied, ${queued} queued`);
  }
  return problems;
}
