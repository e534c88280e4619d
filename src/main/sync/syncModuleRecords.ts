import { randomUUID } from 'node:crypto';
import { ApiError } from '../api/client/apiError';
import { ALL_PROJECTS } from '../api/client/endpoints';
import type { CallOptions } from '../api/client/apiClient';
import type { EntityListQuery } from '../api/client/endpoints';
import type { ListPage } from '../api/client/endpointTypes';
import type { SkippedItem } from '@portaldesk/portal-api/domain/parseEach';
import type { MirrorChanges } from '../store/mirror/mirrorChanges';
import type { MirrorCursorUpdate } from '../store/mirror/mirrorTypes';
import { changedSinceFilter } from './incrementalFilter';
import { mapRecord } from './mapRecord';
import type { RecordRef } from './recordPages';
import { laterInstant, planRecordPull, remainingPages } from './planRecordPull';
import type { RecentCommentQueue } from './recentCommentQueue';
import { SCAN_SORT, scanRunsAhead } from './scanRunsAhead';
import type { ScanPosition } from './scanWindow';
import { nextSettleStep, UnsettledPullError, type SettleFacts } from './settlePull';
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
  /** IANA zone the service reported (null: none): the incremental filter compares days there. */
  timeZone: string | null;
}

interface ModulePull {
  ctx: RunContext;
  portal: PortalRef;
  module: ModuleRef;
  scope: ProgressScope;
  comments: RecentCommentQueue;
  args: ListArgs;
  listKey: string;
  /** This pull's token for the pages it reads (RecordPages.releasePull at its end). */
  token: string;
}

interface ListArgs {
  portal_id: string;
  scope_path: string;
  module_api_name: string;
}

function changedIds(changes: MirrorChanges): string[] {
  const records = changes.records;
  return records ? [...records.inserted, ...records.updated] : [];
}

/** What a run of pages (or of scan windows) brings: its records, held where they are stored. */
interface RunOfRecords {
  items: readonly RecordRef[];
  skipped: readonly SkippedItem[];
  received: number;
  /** page_info.page_count of its last reply: the records in the list then. */
  total: number | null;
}

/**
 * listEntities for this pull, each page of records read and kept where the mirror's writes run
 * (recordPages.ts): the pull sees a RecordRef a record, and its writes name them.
 */
function listRefs(pull: ModulePull) {
  const { ctx, scope, portal, module } = pull;
  const owner = { portalId: portal.id, moduleId: module.id, pull: pull.token };
  const read = (bytes: Uint8Array) => ctx.writer.pages.read(bytes, owner);
  const list = countedCall(ctx, scope, ctx.client.listEntities);
  const listRefs = (args: ListArgs & { query: EntityListQuery }, options?: CallOptions) =>
    list(args, { ...options, read }) as unknown as Promise<ListPage<RecordRef>>;
  // Labelled as the endpoint, for the pagination's messages.
  return Object.assign(listRefs, { endpoint: (list as { endpoint?: unknown }).endpoint });
}

/**
 * Progress after a run: records done, the total from page_info, calls still to make at
 * `perCall` new records a call.
 */
function runDone(pull: ModulePull, run: RunOfRecords, done: number, perCall: number): number {
  const { ctx, scope } = pull;
  const total = run.total ?? scope.total;
  const now = done + run.received;
  ctx.progress.records += run.received;
  ctx.progress.update(scope, {
    done: now,
    total,
    skipped: scope.skipped + run.skipped.length,
    pending: { key: pull.listKey, calls: remainingPages(total, now, perCall) },
  });
  return now;
}

/**
 * Every record of the module (or those `filter` selects) in id order from `from` on, in runs
 * (scanRunsAhead.ts): none that stays listed while it reads is missed, however the list shifts.
 */
function scanRuns(pull: ModulePull, from?: ScanPosition, filter?: EntityListQuery['filter']) {
  const { ctx, scope } = pull;
  const query: EntityListQuery = { sort_by: SCAN_SORT, ...(filter ? { filter } : {}) };
  return scanRunsAhead(
    listRefs(pull),
    { ...pull.args, query },
    {
      ...callOptions(ctx),
      range: ctx.pageSize,
      total: scope.total,
      onDiscard: (reply: ListPage<RecordRef>) => discard(pull, reply),
      ...(from ? { from } : {}),
    },
  );
}

/** Lets go of a scan window's page that no write will name (its pull's end would, later). */
function discard(pull: ModulePull, reply: ListPage<RecordRef>): void {
  const page = reply.items[0]?.page;
  if (page !== undefined) void pull.ctx.writer.pages.release([page]).catch(() => undefined);
}

/** New records a scan window brings: one of its records is the last of the window before. */
const scanStep = (pull: ModulePull) => pull.ctx.pageSize - 1;

/**
 * The full pull, from `from`: each run of windows upserted in one transaction with where the scan
 * stands, so a crash or a kill resumes after the last record stored. A fresh pull first reads the
 * newest `last_updated_time` on the server (one call): every change made during the pull is later
 * than it, so the catch-up and the incremental pulls that follow start there and miss nothing.
 */
async function fullPull(pull: ModulePull, from: ScanPosition, fresh: boolean): Promise<void> {
  const { ctx, scope, portal, module } = pull;
  const cursor = { portalId: portal.id, moduleId: module.id };
  ctx.progress.update(scope, { phase: 'records', message: null });
  if (fresh) {
    const start = await serverMark(pull);
    await ctx.writer.records.writeCursor({
      ...cursor,
      highWater: start.newest,
      scanIndex: from.index,
      scanAfter: from.after,
      fullStartedAt: isoNow(ctx.clock),
      fullCompletedAt: null,
    });
    ctx.progress.update(scope, {
      total: start.count,
      pending: { key: pull.listKey, calls: remainingPages(start.count, 0, scanStep(pull)) },
    });
  }
  let done = from.after === null ? 0 : from.index;
  for await (const run of scanRuns(pull, from)) {
    const next: MirrorCursorUpdate = run.end
      ? { ...cursor, scanIndex: null, scanAfter: null, fullCompletedAt: isoNow(ctx.clock) }
      : { ...cursor, scanIndex: run.position.index, scanAfter: run.position.after };
    const changes = await ctx.writer.pages.upsertPage(run.items, next);
    pull.comments.offer(module, changedIds(changes));
    done = runDone(pull, run, done, scanStep(pull));
  }
}

/**
 * Records changed on or after the cursor's day, each run upserted (re-reading part of a day is
 * harmless: records are upserted by id, an unchanged copy is not rewritten). They are read as a
 * scan in id order, not by page number in order of change: a record trashed behind the reading
 * point would shift the next page's first record onto a page read already, and neither the list's
 * count nor the mirror's would tell (the trashed one was read, the missed one never was). An id
 * never changes, so a record changed while the scan reads stays where it was; the cursor moves
 * only to the newest change on the server before the scan began (one call), so a change made
 * behind the reading point is read by the next pull.
 */
async function incrementalPull(pull: ModulePull, since: string | null): Promise<void> {
  const { ctx, scope, portal, module } = pull;
  ctx.progress.update(scope, { phase: 'incremental', done: 0, total: null, message: null });
  const start = await serverMark(pull);
  const filter = since === null ? undefined : changedSinceFilter(since, portal.timeZone);
  const cursor = { portalId: portal.id, moduleId: module.id };
  let done = 0;
  for await (const run of scanRuns(pull, undefined, filter)) {
    const changes = await ctx.writer.pages.upsertPage(run.items, cursor);
    pull.comments.offer(module, changedIds(changes));
    done = runDone(pull, run, done, scanStep(pull));
  }
  const highWater = laterInstant(since, start.newest);
  if (highWater !== since) await ctx.writer.records.writeCursor({ ...cursor, highWater });
}

/**
 * Every id the server lists, compared with the mirror's: listed records are upserted (an
 * unchanged one costs nothing), the others removed, then the removed ones probed for the trash.
 * The listing is a scan (scanRunsAhead.ts), so a record trashed while it reads never makes it
 * remove one that is still listed.
 */
async function reconcile(pull: ModulePull): Promise<void> {
  const { ctx, scope, portal, module } = pull;
  ctx.progress.update(scope, { phase: 'reconcile', done: 0, total: null, message: null });
  const keep = new Set<string>();
  let skipped = 0;
  let done = 0;
  for await (const run of scanRuns(pull)) {
    const changes = await ctx.writer.pages.upsertRecords(run.items);
    pull.comments.offer(module, changedIds(changes));
    for (const record of run.items) keep.add(record.id);
    // A record the server sends malformed is still there: its stored copy stays.
    for (const item of run.skipped) if (item.id !== null) keep.add(item.id);
    skipped += run.skipped.length;
    done = runDone(pull, run, done, scanStep(pull));
  }
  const removed = (await ctx.writer.records.deleteRecordsNotIn(portal.id, module.id, keep)).records;
  const getEntity = countedCall(ctx, scope, ctx.client.getEntity);
  for (const id of (removed?.deleted ?? []).slice(0, TRASH_PROBE_MAX)) {
    try {
      const entity = await getEntity({ ...pull.args, entity_id: id }, callOptions(ctx));
      await ctx.writer.records.upsertRecords([mapRecord(portal.id, module.id, entity)]);
    } catch (error) {
      // 404: deleted for good, as removed. Anything else: removed for now, back when listed.
      if (!(error instanceof ApiError) || error.kind !== 'permanent') throw error;
    }
  }
  await ctx.writer.records.writeCursor({
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

/**
 * Ours: records the newest-change call reads. The newest one the service sends malformed is
 * skipped, and the next well-formed one still gives a cursor (an earlier one only reads more);
 * with a single record, one malformed record would keep every incremental pull unfiltered.
 */
export const MARK_RECORDS = 10;

/**
 * Where the server stands (one call): its count of the module's listed records and the newest
 * `last_updated_time` among them.
 */
async function serverMark(pull: ModulePull): Promise<{ count: number; newest: string | null }> {
  const { ctx, scope } = pull;
  const newest = await countedCall(
    ctx,
    scope,
    ctx.client.listEntities,
  )(
    {
      ...pull.args,
      query: { page: 1, per_page: MARK_RECORDS, sort_by: 'DESC(last_updated_time)' },
    },
    callOptions(ctx),
  );
  return {
    count: newest.pageInfo.page_count ?? (await countOnServer(pull)),
    newest: newest.items.reduce<string | null>(
      (latest, item) => laterInstant(latest, item.last_updated_time),
      null,
    ),
  };
}

/**
 * Until the mirror holds the server's records (settlePull.ts): the changes made since a full pull
 * began, the comparison of ids, and a count after each; never `done` while the counts differ.
 */
async function settle(pull: ModulePull, facts: Omit<SettleFacts, 'mirrorCount' | 'knownGap'>) {
  const { ctx, portal, module } = pull;
  const gapKey = `${portal.id}/${module.id}`;
  for (;;) {
    const mirrorCount = ctx.mirror.records.countServerCopies(portal.id, module.id);
    const step = nextSettleStep({
      ...facts,
      mirrorCount,
      knownGap: ctx.knownGaps.get(gapKey) ?? 0,
    });
    if (step === 'done') return facts;
    if (step === 'unsettled') {
      throw new UnsettledPullError(
        `The service counts ${facts.serverCount} records of ${module.name} and the mirror holds ${mirrorCount}, after every id was compared: records changed while they were compared. Everything read is kept; the next sync compares them again.`,
      );
    }
    if (step === 'catch-up') {
      await incrementalPull(pull, facts.startNewest ?? null);
      facts = { ...facts, caughtUp: true };
    } else {
      await reconcile(pull);
      facts = { ...facts, reconciled: true };
    }
    facts = { ...facts, serverCount: await countOnServer(pull) };
  }
}

/**
 * One module's records: the full pull (or its resumption), else the incremental pull; then
 * settle: the server's count (one call) against the mirror's active records, the id-by-id
 * reconciliation when they differ or it is due (RECONCILE_INTERVAL_MS), and `done` only once
 * they agree.
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
    token: randomUUID(),
  };
  try {
    const plan = planRecordPull(ctx.mirror.records.cursor(portal.id, module.id), ctx.clock.now(), {
      reconcileIntervalMs: ctx.reconcileIntervalMs,
      forceReconcile: ctx.forceReconcile,
    });
    if (plan.kind === 'full') {
      await fullPull(pull, plan.from, plan.fresh);
      const end = await serverMark(pull);
      const settled = await settle(pull, {
        startNewest: ctx.mirror.records.cursor(portal.id, module.id)?.highWater ?? null,
        newest: end.newest,
        caughtUp: false,
        serverCount: end.count,
        reconciled: false,
        reconcileDue: ctx.forceReconcile,
      });
      // The pull listed every id: it counts as a comparison.
      if (!settled.reconciled) {
        await ctx.writer.records.writeCursor({
          portalId: portal.id,
          moduleId: module.id,
          lastReconciledAt: isoNow(ctx.clock),
        });
      }
    } else {
      await incrementalPull(pull, plan.since);
      await settle(pull, {
        caughtUp: true,
        serverCount: await countOnServer(pull),
        reconciled: false,
        reconcileDue: plan.reconcile,
      });
    }
  } finally {
    // Pages read and never stored (a scan window dropped when the list shifted, a failed pull).
    await ctx.writer.pages.releasePull(pull.token).catch(() => undefined);
  }
  // Pages leave full-text indexing for batches; what is left is indexed before "done".
  await ctx.writer.fullText.flush();
  ctx.progress.update(scope, { phase: 'done', pending: null, message: null });
}
