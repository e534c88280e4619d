/**
 * Whether a trash, restore or permanent-delete batch may proceed, decided from the rows it names.
 * Each check throws a 400 that lists every offending id, so the client can fix its request; the
 * handlers run all checks before writing anything.
 */
import { apiErrors } from '../http/apiError';
import { canRestore, restoreDeadlineMs, RESTORE_WINDOW_MS, type Batch } from './binRules';
import type { WorkItemRow } from './binStore';

const RESTORE_DAYS = RESTORE_WINDOW_MS / 86_400_000;

function refuse(where: string, ids: number[], why: string): never {
  throw apiErrors.invalidParameter(`${where}: ${ids.join(', ')} ${why}`);
}

/** Ids that are not records of the batch's module in this portal (other portals' ids included). */
function checkKnown(batch: Batch, rows: Map<number, WorkItemRow>, portalId: number, where: string) {
  const unknown = batch.ids.filter((id) => rows.get(id)?.module !== batch.module);
  if (unknown.length > 0) refuse(where, unknown, `are not ${batch.module} of portal ${portalId}.`);
}

export function checkTrash(
  batch: Batch,
  rows: Map<number, WorkItemRow>,
  parents: Map<number, WorkItemRow>,
  portalId: number,
  where = 'items',
): void {
  checkKnown(batch, rows, portalId, where);
  const trashed = batch.ids.filter((id) => rows.get(id)?.trashed_time);
  if (trashed.length > 0) refuse(where, trashed, 'are already in the bin.');
  const inTrashedProject = batch.ids.filter((id) => {
    const projectId = rows.get(id)?.project_id;
    return projectId !== null && projectId !== undefined && parents.get(projectId)?.trashed_time;
  });
  if (inTrashedProject.length > 0) {
    refuse(where, inTrashedProject, 'belong to a project that is in the bin; restore it first.');
  }
}

/**
 * Restorable: in the bin, trashed at most 30 days ago, and not inside a project that stays in
 * the bin (`restoringProjects` are the projects this same request restores).
 */
export function checkRestore(
  batch: Batch,
  rows: Map<number, WorkItemRow>,
  parents: Map<number, WorkItemRow>,
  restoringProjects: ReadonlySet<number>,
  portalId: number,
  nowMs: number,
  where: string,
): void {
  checkKnown(batch, rows, portalId, where);
  const active = batch.ids.filter((id) => !rows.get(id)?.trashed_time);
  if (active.length > 0) refuse(where, active, 'are not in the bin.');
  const expired = batch.ids.filter((id) => !canRestore(rows.get(id)?.trashed_time ?? '', nowMs));
  if (expired.length > 0) {
    const first = rows.get(expired[0] as number)?.trashed_time ?? '';
    refuse(
      where,
      expired,
      `were trashed more than ${RESTORE_DAYS} days ago (the first on ${first}; restorable until ` +
        `${new Date(restoreDeadlineMs(first)).toISOString()}) and can no longer be restored; ` +
        'delete them from the bin instead.',
    );
  }
  const blocked = batch.ids.filter((id) => {
    const projectId = rows.get(id)?.project_id;
    if (projectId === null || projectId === undefined) return false;
    return Boolean(parents.get(projectId)?.trashed_time) && !restoringProjects.has(projectId);
  });
  if (blocked.length > 0) {
    refuse(where, blocked, 'belong to a project that is in the bin; restore the project too.');
  }
}

export function checkDelete(
  batch: Batch,
  rows: Map<number, WorkItemRow>,
  portalId: number,
  where: string,
): void {
  checkKnown(batch, rows, portalId, where);
  const active = batch.ids.filter((id) => !rows.get(id)?.trashed_time);
  if (active.length > 0) refuse(where, active, 'are not in the bin; trash them first.');
}
