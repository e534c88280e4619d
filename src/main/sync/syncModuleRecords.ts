import { ApiError } from '../api/client/apiError';
import { ALL_PROJECTS } from '../api/client/endpoints';
import type { EntityListQuery } from '../api/client/endpoints';
import type { NumberedPage } from '../api/client/paginate';
import type { Entity } from '../../shared/domain/entity';
import type { MirrorChanges } from '../store/mirror/mirrorChanges';
import type { MirrorCursorUpdate } from '../store/mirror/mirrorTypes';
import { changedSinceFilter } from './incrementalFilter';
import { mapRecord } from './mapRecord';
import { pageRunsAhead } from './pagesAhead';
import { MentionedUsers } from './mentionedUsers';
import { laterInstant, planRecordPull, remainingPages } from './planRecordPull';
import type { RecentCommentQueue } from './recentCommentQueue';
import { callOptions, countedCall, isoNow, type ModuleRef, type RunContext } from './syncContext';
import type { ProgressScope } from './syncProgressTracker';

/**
 * Ours: after a reconciliation, records the server no longer lists are read one by one (up to
 * this many per module) to tell a trashed record from a deleted one. The spec's trash keeps a
 * record readable by id with its `trashed_time`; the mirror keeps such a record with that time
 * (hidden from lists and counts, as on the server) until it is restored or deleted. Beyond this
 * many, the rest are removed like deleted ones: a restore changes the server's count, so the next
 * sync's count check brings them back.
 */
export const TRASH_PROBE_MAX = 20;

/** A portal as its modules' pulls need it. */
export interface PortalRef {
  id: string;
  /** IANA zone: the incremental filter compares days there. */
  timeZone: string;
}

interface ModulePull {
  ctx: RunContext;
  portal: PortalRef;
  module: ModuleRef;
  scope: ProgressScope;
  comments: RecentCommentQueue;
  args: { portal_id: string; scope_path: string; module_api_name: string };
  listKey: string;
}

function changedIds(changes: MirrorChanges): string[] {
  const records = changes.records;
  return records ? [...records.inserted, ...records.updated] : [];
}

/** The records of a run of pages and the people they mention, ready for the mirror. */
function runRecords(pull: ModulePull, run: readonly NumberedPage<Entity>[]) {
  const users = new MentionedUsers();
  const records = [];
  for (const page of run) {
    users.addRecords(page.items);
    for (const entity of page.items)
      records.push(mapRecord(pull.portal.id, pull.module.id, entity));
  }
  return { records, users: users.list() };
}

/** Progress after a run: records done, the total from page_info, calls still to make. */
function runDone(pull: ModulePull, run: readonly NumberedPage<Entity>[], done: number): number {
  const { ctx, scope } = pull;
  const last = run[run.length - 1]!;
  const total = last.pageInfo.page_count ?? scope.total;
  let received = 0;
  let skipped = 0;
  for (const page of run) {
    received += page.received;
    skipped += page.skipped.length;
  }
  const now = done + received;
  ctx.progress.records += received;
  ctx.progress.update(scope, {
    done: now,
    total,
    skipped: scope.skipped + skipped,
    pending: { key: pull.listKey, calls: remainingPages(total, now, ctx.pageSize) },
  });
  return now;
}

/** The list's pages in runs of those already arrived (pagesAhead.ts), each run one transaction. */
function listRuns(pull: ModulePull, query: EntityListQuery, startPage = 1) {
  const { ctx, scope } = pull;
  const list = countedCall(ctx, scope, ctx.client.listEntities);
  // The total a probe or an earlier page told lets the next pages be requested ahead at once.
  return pageRunsAhead(
    list,
    { ...pull.args, query },
    { ...callOptions(ctx), perPage: ctx.pageSize, startPage, total: scope.total },
  );
}

/**
 * The full pull, from `startPage`: each page upserted in one transaction with the cursor's next
 * page, so a crash or a kill resumes after the last page stored. A fresh pull first reads the
 * newest `last_updated_time` on the server (one call): every change made during the pull is
 * later than it, so the incremental pull that follows starts there and misses nothing.
 */
async function fullPull(pull: ModulePull, startPage: number, fresh: boolean): Promise<void> {
  const { ctx, scope, portal, module } = pull;
  const cursor = { portalId: portal.id, moduleId: module.id };
  ctx.progress.update(scope, { phase: 'records', message: null });
  if (fresh) {
    const newest = await countedCall(
      ctx,
      scope,
      ctx.client.listEntities,
    )(
      { ...pull.args, query: { page: 1, per_page: 1, sort_by: 'DESC(last_updated_time)' } },
      callOptions(ctx),
    );
    ctx.mirror.records.writeCursor({
      ...cursor,
      highWater: newest.items[0]?.last_updated_time ?? null,
      nextPage: 1,
      fullStartedAt: isoNow(ctx.clock),
      fullCompletedAt: null,
    });
    ctx.progress.update(scope, {
      total: newest.pageInfo.page_count,
      pending: {
        key: pull.listKey,
        calls: remainingPages(newest.pageInfo.page_count, 0, ctx.pageSize),
      },
    });
  }
  let done = (startPage - 1) * ctx.pageSize;
  for await (const run of listRuns(pull, {}, startPage)) {
    const last = run[run.length - 1]!;
    const { records, users } = runRecords(pull, run);
    const next: MirrorCursorUpdate = last.pageInfo.has_next_page
      ? { ...cursor, nextPage: last.page + 1 }
      : { ...cursor, nextPage: null, fullCompletedAt: isoNow(ctx.clock) };
    const changes = ctx.mirror.records.upsertRecordPage(records, next, { users });
    pull.comments.offer(module, changedIds(changes));
    done = runDone(pull, run, done);
  }
}

/**
 * Records changed on or after the cursor's day, oldest change first; each page upserted with the
 * cursor moved to the newest change it holds, so a kill resumes from there. Re-reading part of a
 * day is harmless: records are upserted by id, and an unchanged copy is not rewritten.
 */
async function incrementalPull(pull: ModulePull, since: string | null): Promise<void> {
  const { ctx, scope, portal, module } = pull;
  ctx.progress.update(scope, { phase: 'incremental', done: 0, total: null, message: null });
  const query: EntityListQuery = {
    sort_by: 'ASC(last_updated_time)',
    ...(since === null ? {} : { filter: changedSinceFilter(since, portal.timeZone) }),
  };
  let highWater = since;
  let done = 0;
  for await (const run of listRuns(pull, query)) {
    for (const page of run) {
      for (const item of page.items) highWater = laterInstant(highWater, item.last_updated_time);
    }
    const { records, users } = runRecords(pull, run);
    const changes = ctx.mirror.records.upsertRecordPage(
      records,
      { portalId: portal.id, moduleId: module.id, highWater },
      { users },
    );
    pull.comments.offer(module, changedIds(changes));
    done = runDone(pull, run, done);
  }
}

/**
 * Every id the server lists, compared with the mirror's: listed records are upserted (an
 * unchanged one costs nothing), the others removed, then the removed ones probed for the trash.
 */
async function reconcile(pull: ModulePull): Promise<void> {
  const { ctx, scope, portal, module } = pull;
  ctx.progress.update(scope, { phase: 'reconcile', done: 0, total: null, message: null });
  const keep = new Set<string>();
  let skipped = 0;
  let done = 0;
  for await (const run of listRuns(pull, {})) {
    const { records, users } = runRecords(pull, run);
    const changes = ctx.mirror.records.upsertRecords(records, { users });
    pull.comments.offer(module, changedIds(changes));
    for (const record of records) keep.add(record.id);
    for (const page of run) {
      // A record the server sends malformed is still there: its stored copy stays.
      for (const item of page.skipped) if (item.id !== null) keep.add(item.id);
      skipped += page.skipped.length;
    }
    done = runDone(pull, run, done);
  }
  const removed = ctx.mirror.records.deleteRecordsNotIn(portal.id, module.id, keep).records;
  const getEntity = countedCall(ctx, scope, ctx.client.getEntity);
  for (const id of (removed?.deleted ?? []).slice(0, TRASH_PROBE_MAX)) {
    try {
      const entity = await getEntity({ ...pull.args, entity_id: id }, callOptions(ctx));
      ctx.mirror.records.upsertRecords([mapRecord(portal.id, module.id, entity)]);
    } catch (error) {
      // 404: deleted for good, as removed. Anything else: removed for now, back when listed.
      if (!(error instanceof ApiError) || error.kind !== 'permanent') throw error;
    }
  }
  ctx.mirror.records.writeCursor({
    portalId: portal.id,
    moduleId: module.id,
    lastReconciledAt: isoNow(ctx.clock),
  });
  const gapKey = `${portal.id}/${module.id}`;
  if (skipped > 0) {
    const server = await countOnServer(pull);
    ctx.knownGaps.set(gapKey, server - ctx.mirror.records.countServerCopies(portal.id, module.id));
  } else {
    ctx.knownGaps.delete(gapKey);
  }
}

async function countOnServer(pull: ModulePull): Promise<number> {
  const { ctx, scope } = pull;
  return countedCall(ctx, scope, ctx.client.countEntities)(pull.args, callOptions(ctx));
}

/** Whether the server's count of active records matches the mirror's (one call). */
async function countsAgree(pull: ModulePull): Promise<boolean> {
  const { ctx, portal, module } = pull;
  const server = await countOnServer(pull);
  const local = ctx.mirror.records.countServerCopies(portal.id, module.id);
  return server - local === (ctx.knownGaps.get(`${portal.id}/${module.id}`) ?? 0);
}

/**
 * One module's records: the full pull (or its resumption), else the incremental pull; then the
 * deletion check: the server's count (one call) against the mirror's active records, and the
 * id-by-id reconciliation only when they differ or it is due (RECONCILE_INTERVAL_MS).
 */
export async function syncModuleRecords(
  ctx: RunContext,
  portal: PortalRef,
  module: ModuleRef,
  scope: ProgressScope,
  comments: RecentCommentQueue,
): Promise<void> {
  const args = { portal_id: portal.id, scope_path: ALL_PROJECTS, module_api_name: module.apiName };
  const pull: ModulePull = {
    ctx,
    portal,
    module,
    scope,
    comments,
    args,
    listKey: ctx.client.endpointKey('listEntities', args),
  };
  const plan = planRecordPull(ctx.mirror.records.cursor(portal.id, module.id), ctx.clock.now(), {
    reconcileIntervalMs: ctx.reconcileIntervalMs,
    forceReconcile: ctx.forceReconcile,
  });
  if (plan.kind === 'full') {
    await fullPull(pull, plan.startPage, plan.fresh);
    let agree = await countsAgree(pull);
    if (!agree && !ctx.forceReconcile) {
      // Created or deleted while the pages were read: changes since the pull began first.
      await incrementalPull(
        pull,
        ctx.mirror.records.cursor(portal.id, module.id)?.highWater ?? null,
      );
      agree = await countsAgree(pull);
    }
    if (agree && !ctx.forceReconcile) {
      ctx.mirror.records.writeCursor({
        portalId: portal.id,
        moduleId: module.id,
        lastReconciledAt: isoNow(ctx.clock),
      });
    } else {
      await reconcile(pull);
    }
  } else {
    await incrementalPull(pull, plan.since);
    if (plan.reconcile || !(await countsAgree(pull))) await reconcile(pull);
  }
  // Pages leave full-text indexing for batches; what is left is indexed before "done".
  ctx.mirror.fullText.flush();
  ctx.progress.update(scope, { phase: 'done', pending: null, message: null });
}
