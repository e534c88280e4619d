/**
 * Bulk edits as the engine runs them (issue 20): the selection read from the mirror (rows picked,
 * or every record the table's filter matches), the preview, the queueing of one update per record
 * through the outbox's ledger, its undo while still queued, and trash/restore of many records.
 *
 * A thin shell: what each record gets is planBulkEdit's (the record editor's rules), where it goes
 * in the record's queue is the ledger's (planEdit: folded into the record's queued edit, else a
 * new operation), what an undo restores is bulkUndo's. Queueing writes BATCH_RECORDS records per
 * transaction and yields to the event loop between batches, so 10,000 records never hold the
 * engine's thread for long, and pushes `bulkEdit.progress` once a batch.
 */
import type Database from 'better-sqlite3';
import {
  BULK_FAILURES_SHOWN_MAX,
  BULK_GROUPS_MAX,
  BULK_RECORDS_MAX,
  BULK_SAMPLE_MAX,
  type BulkApplied,
  type BulkApplyArgs,
  type BulkEditArgs,
  type BulkGroup,
  type BulkPreview,
  type BulkProgress,
  type BulkSelection,
  type BulkTrashArgs,
  type BulkTrashAskArgs,
  type BulkTrashAsked,
  type BulkTrashed,
  type BulkUndone,
} from '../../shared/ipc/areas/bulkEdit';
import type { EventPusher } from '../bridge/eventHub';
import type { EditCatalog } from '../outbox/editCatalog';
import { FALLBACK_TIME_ZONE, loadEditCatalog } from '../outbox/editCatalog';
import { LedgerError } from '../outbox/ledgerError';
import type { EditSource } from '../outbox/outboxLedger';
import { opStatus, type OutboxOp } from '../outbox/outboxTypes';
import type { EditPlan } from '../outbox/planEdit';
import type { OutboxService } from '../outbox/outboxService';
import { relabelEntry, relabelValue, type OptionsRelabelled } from '../outbox/relabelOptions';
import type { Mirror } from '../store/mirror/mirror';
import { BulkEditRepository } from './bulkEditRepository';
import {
  modulesHeldForUser,
  replayEtaSeconds,
  updatesToSend,
  type EtaBudget,
  type QueuedOp,
} from './bulkEta';
import { planBulkEdit, type BulkPlan, type BulkRecordInput } from './bulkPlan';
import { undoStep } from './bulkUndo';
import { HeldPreviews, PREVIEW_HELD_MS, selectionDifference, type HeldTrash } from './heldPreviews';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * A record's queue as writing `placed` leaves it (ledger.writeEdit): a fold left without fields
 * drops its operation, one with fields stays, and a new update goes last (none when empty).
 */
function queueAfter(ops: readonly OutboxOp[], placed: EditPlan, moduleId: string): QueuedOp[] {
  const empty = Object.keys(placed.fields).length === 0;
  if (placed.action === 'merge')
    return empty ? ops.filter((op) => op.seq !== placed.seq) : [...ops];
  const recordId = ops[0]?.recordId ?? '';
  return empty
    ? [...ops]
    : [...ops, { recordId, moduleId, kind: 'update', action: null, state: 'pending' }];
}

/**
 * Ours: records written per transaction. A batch of 500 held the engine's event loop 161 ms on a
 * loaded machine (bench:replay --bulk, `loop_max_ms`); 250 keeps it near a frame or few.
 */
export const BATCH_RECORDS = 250;
/** Rows read from a filtered list at once while collecting its ids. */
const VIEW_READ_ROWS = 1_000;

export interface BulkEditServiceOptions {
  db: Database.Database;
  mirror: Mirror;
  outbox: OutboxService;
  events: EventPusher;
  /** The record PATCH budget of a portal as the scheduler sees it now (undefined: never used). */
  patchBudget(portalId: string): EtaBudget | undefined;
  now?: () => number;
  /** Records per transaction (default BATCH_RECORDS; tests make batches small). */
  batchRecords?: number;
}

export class BulkEditService {
  readonly repo: BulkEditRepository;
  private readonly now: () => number;
  private readonly batch: number;
  private readonly previews: HeldPreviews;
  /** The records each bulk trash (or restore) question named, for its confirm. */
  private readonly trashQuestions: HeldPreviews<HeldTrash>;
  /**
   * Applies still queueing their batches, by bulk edit: an undo asked meanwhile (the Outbox lists
   * the group once its first batch is written) stops the apply before taking it back, or the
   * batches after it would stay queued with their group gone.
   */
  private readonly applying = new Map<
    number,
    { stop: boolean; notQueued: number; finished: Promise<void> }
  >();
  /**
   * Undos running, by bulk edit: one asked while another of the same bulk edit runs waits for it
   * (and is then refused: undone already). Both running would have the second count the records
   * the first had given back as edited since, and answer those wrong counts.
   */
  private readonly undoing = new Map<number, Promise<unknown>>();

  constructor(private readonly options: BulkEditServiceOptions) {
    this.now = options.now ?? Date.now;
    this.batch = options.batchRecords ?? BATCH_RECORDS;
    this.repo = new BulkEditRepository(options.db, this.now);
    this.previews = new HeldPreviews(this.now);
    this.trashQuestions = new HeldPreviews<HeldTrash>(this.now);
    // An operation the outbox moves (keep mine puts a record's queue back in order) stays this
    // bulk edit's: its undo and its counts follow it.
    options.outbox.repo.requeued = (from, to) => this.repo.followRequeuedOp(from, to);
    // The queued edits follow an option renamed after them: so do the entries an undo compares
    // with them and gives back, or undo would find them changed since, or give back a name the
    // option no longer has.
    options.outbox.repo.optionsRelabelled = (change) => this.followRenamedOptions(change);
  }

  /** Inside the rename's (or its discard's) transaction. */
  private followRenamedOptions({ portalId, moduleId, field, relabel }: OptionsRelabelled): void {
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    for (const { row, previous, written } of this.repo.entriesOfField(portalId, moduleId, field)) {
      const before = previous && relabelEntry(previous, relabel);
      const after = written && relabelEntry(written, relabel);
      if (!same(before, previous) || !same(after, written)) {
        this.repo.setEntries(row, before, after);
      }
    }
    for (const { id, value } of this.repo.valuesOfField(portalId, moduleId, field)) {
      const next = relabelValue(value, relabel);
      if (!same(next, value)) this.repo.setValue(id, next);
    }
  }

  /**
   * The selected records' ids, in the table's order for a filter (read a thousand rows at a time,
   * the event loop yielded between). Refused in words when too many.
   */
  async selectionIds(
    portalId: string,
    moduleId: string,
    selection: BulkSelection,
  ): Promise<string[]> {
    if (selection.kind === 'ids') {
      const ids = [...new Set(selection.ids)];
      await this.refuseOtherModules(portalId, moduleId, ids);
      return ids;
    }
    const view = this.options.mirror.query.openView({
      portalId,
      moduleId,
      ...(selection.filter ? { filter: selection.filter } : {}),
    });
    const except = new Set(selection.except ?? []);
    if (view.total - except.size > BULK_RECORDS_MAX) {
      throw new LedgerError(
        `${view.total.toLocaleString('en-US')} records match this filter; a bulk change takes at most ${BULK_RECORDS_MAX.toLocaleString('en-US')}. Nothing was changed: narrow the filter.`,
      );
    }
    const ids: string[] = [];
    for (let from = 0; from < view.total; from += VIEW_READ_ROWS) {
      for (const row of view.read(from, VIEW_READ_ROWS)) if (!except.has(row.id)) ids.push(row.id);
      await nextTurn();
    }
    return ids;
  }

  /**
   * Refuses picked ids naming records of another module of the portal: the ledger edits and
   * trashes any record of the portal, and the bulk change would be listed, refreshed and undone
   * under this module's name. Ids the mirror does not hold (gone since, another portal's) are left
   * to the per-record refusal, which names them.
   */
  private async refuseOtherModules(portalId: string, moduleId: string, ids: readonly string[]) {
    let strangers = 0;
    for (let from = 0; from < ids.length; from += VIEW_READ_ROWS) {
      for (const id of ids.slice(from, from + VIEW_READ_ROWS)) {
        const record = this.options.mirror.localEdits.record(portalId, id);
        if (record && record.module_id !== moduleId) strangers += 1;
      }
      await nextTurn();
    }
    if (strangers > 0) {
      const n = ids.length.toLocaleString('en-US');
      const are = strangers === 1 ? 'is not a record' : 'are not records';
      throw new LedgerError(
        `${strangers.toLocaleString('en-US')} of the ${n} selected records ${are} of this module. Nothing was changed; select the records again in this module's list.`,
      );
    }
  }

  /** A record as the plan reads it; a record the ledger refuses is named with its reason. */
  private input(
    portalId: string,
    recordId: string,
    catalogs: Map<string, EditCatalog>,
  ): { input: BulkRecordInput; source: EditSource | null } {
    try {
      const source = this.options.outbox.ledger.editFrom(portalId, recordId, catalogs);
      return {
        source,
        input: {
          recordId,
          name: source.record.name,
          catalog: source.catalog,
          current: source.current,
        },
      };
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      const name = this.options.mirror.localEdits.record(portalId, recordId)?.name ?? recordId;
      return {
        source: null,
        input: {
          recordId,
          name,
          catalog: undefined as unknown as EditCatalog,
          current: () => null,
          refused: error.message.replace(/ Nothing was (queued|changed)[^.]*\..*$/, ''),
        },
      };
    }
  }

  /**
   * What applying would do, read BATCH_RECORDS records at a time (the event loop yielded between).
   * The records it counts are held under its `previewId` for apply.
   */
  async preview(args: BulkEditArgs): Promise<BulkPreview> {
    const ids = await this.selectionIds(args.portalId, args.moduleId, args.selection);
    const catalogs = new Map<string, EditCatalog>();
    const plan: BulkPlan = { changes: [], unchanged: 0, failures: [] };
    let coalesced = 0;
    // Updates to send once applied, less those now: per changed record, its queue after the write
    // as planEdit places it (folded, dropped or a new update behind) against its queue now.
    let moreToSend = 0;
    // Modules whose record changes wait for the user (a configuration change refused or in
    // conflict holds them): read once from the portal's queue, as each record's own does not hold it.
    const queued = this.options.outbox.repo.allOps(args.portalId);
    const held = modulesHeldForUser(queued);
    for (let from = 0; from < ids.length; from += this.batch) {
      const sources = new Map<string, EditSource>();
      const inputs = ids.slice(from, from + this.batch).map((id) => {
        const { input, source } = this.input(args.portalId, id, catalogs);
        if (source) sources.set(id, source);
        return input;
      });
      const part = planBulkEdit(inputs, args);
      // Where each change would go, as the apply will put it (planEdit: folded, or its own update).
      for (const change of part.changes) {
        const source = sources.get(change.recordId) as EditSource;
        const placed = this.options.outbox.ledger.planOf(
          source,
          [{ field: args.field, type: change.type, value: change.after }],
          { keepRefused: true },
        );
        if (placed.action === 'merge') coalesced += 1;
        moreToSend +=
          updatesToSend(queueAfter(source.ops, placed, args.moduleId), held) -
          updatesToSend(source.ops, held);
      }
      plan.changes.push(...part.changes);
      plan.unchanged += part.unchanged;
      plan.failures.push(...part.failures);
      await nextTurn();
    }
    const field =
      [...catalogs.values()].flatMap((c) => c.fields).find((f) => f.key === args.field) ?? null;
    const patchesQueued = updatesToSend(queued, held) + moreToSend;
    const budget = this.options.patchBudget(args.portalId) ?? {
      limit: 200,
      windowMs: 120_000,
      remaining: 200,
    };
    const timeZone = this.options.outbox.repo.portal(args.portalId)?.timeZone ?? FALLBACK_TIME_ZONE;
    const previewId = this.previews.hold({
      args,
      selected: [...ids].sort(),
      changes: plan.changes.map((c) => c.recordId),
      unchanged: plan.unchanged,
      failed: plan.failures.length,
    });
    return {
      previewId,
      selected: ids.length,
      changes: plan.changes.length,
      unchanged: plan.unchanged,
      failed: plan.failures.length,
      failures: plan.failures.slice(0, BULK_FAILURES_SHOWN_MAX),
      coalesced,
      sample: plan.changes.slice(0, BULK_SAMPLE_MAX).map((c) => ({
        recordId: c.recordId,
        name: c.name,
        before: c.before,
        after: c.after,
      })),
      field: field
        ? { key: field.key, label: field.label, type: field.type }
        : { key: args.field, label: args.field, type: 'single_line' },
      timeZone,
      patchesQueued,
      etaSeconds: replayEtaSeconds(patchesQueued, budget),
    };
  }

  private progress(args: { portalId: string; moduleId: string }, task: BulkProgress['task']) {
    return (done: number, total: number) =>
      this.options.events.push('bulkEdit.progress', `${args.portalId}/${args.moduleId}`, () => ({
        portalId: args.portalId,
        moduleId: args.moduleId,
        task,
        done,
        total,
      }));
  }

  /**
   * Queues the edit a preview showed, BATCH_RECORDS records per transaction, on the records that
   * preview counted as changing and no other. Refused, changing nothing, when the preview is not
   * held, or when its selection names other records now (a sync or an edit changed what a filter
   * matches): the admin confirmed those records, not these. Each record is read and planned again
   * as its batch is written (its queue may have moved since): refused and unchanged ones are
   * counted, with the preview's own.
   */
  async apply({ previewId }: BulkApplyArgs): Promise<BulkApplied> {
    const { outbox } = this.options;
    const held = this.previews.take(previewId);
    if (!held) {
      throw new LedgerError(
        `This preview is no longer held (it was queued already, is more than ${PREVIEW_HELD_MS / 60_000} minutes old, or newer previews replaced it). Nothing was queued; preview again.`,
      );
    }
    const { args } = held;
    const now = (await this.selectionIds(args.portalId, args.moduleId, args.selection)).sort();
    const { joined, left } = selectionDifference(held.selected, now);
    if (joined > 0 || left > 0) {
      const records = (n: number) =>
        `${n.toLocaleString('en-US')} ${n === 1 ? 'record' : 'records'}`;
      const moved = [
        joined > 0 ? `${records(joined)} joined it` : '',
        left > 0 ? `${records(left)} left it` : '',
      ]
        .filter(Boolean)
        .join(' and ');
      throw new LedgerError(
        `The selection is ${records(now.length)} now, not the ${records(held.selected.length)} previewed: ${moved} since the preview (a sync or an edit changed which records match). Nothing was queued; preview again to see what would change.`,
      );
    }
    const ids = held.changes;
    const catalogs = new Map<string, EditCatalog>();
    const label =
      loadEditCatalog(outbox.repo, args.portalId, args.moduleId, null, null)?.fields.find(
        (f) => f.key === args.field,
      )?.label ?? args.field;
    const bulkEditId = this.repo.insertBulkEdit({
      portalId: args.portalId,
      moduleId: args.moduleId,
      field: args.field,
      label,
      action: args.action,
      value: args.action === 'clear' ? null : args.value,
      planned: ids.length,
    });
    const result: BulkApplied = {
      bulkEditId,
      queued: 0,
      coalesced: 0,
      unchanged: held.unchanged,
      failed: held.failed,
      notQueued: 0,
    };
    let finished = () => {};
    const run = {
      stop: false,
      notQueued: 0,
      finished: new Promise<void>((done) => (finished = done)),
    };
    this.applying.set(bulkEditId, run);
    const report = this.progress(args, 'apply');
    report(0, ids.length);
    try {
      for (let from = 0; from < ids.length; from += this.batch) {
        if (run.stop) {
          result.notQueued = run.notQueued = ids.length - from;
          break;
        }
        outbox.repo.transaction(() => {
          for (const id of ids.slice(from, from + this.batch))
            this.applyOne(args, id, catalogs, result);
        });
        report(Math.min(ids.length, from + this.batch), ids.length);
        outbox.queuedElsewhere({ portalId: args.portalId, moduleId: args.moduleId });
        await nextTurn();
      }
      // Every batch written, or the rest given up by an undo: not stopped half way. A bulk edit
      // left unfinished (the app killed between batches) says so in the Outbox at the next start.
      this.repo.markFinished(bulkEditId);
    } finally {
      this.applying.delete(bulkEditId);
      finished();
    }
    if (result.queued === 0 && !run.stop) {
      this.repo.deleteBulkEdit(bulkEditId);
      return { ...result, bulkEditId: null };
    }
    return result;
  }

  private applyOne(
    args: BulkEditArgs,
    recordId: string,
    catalogs: Map<string, EditCatalog>,
    result: BulkApplied,
  ): void {
    const { input, source } = this.input(args.portalId, recordId, catalogs);
    const plan = planBulkEdit([input], args);
    const change = plan.changes[0];
    if (!source || !change) {
      result.failed += plan.failures.length;
      result.unchanged += plan.unchanged;
      return;
    }
    // An edit the service refused keeps its reason and stays stopped: the bulk value waits
    // behind it (README, "A refused edit of the user's").
    const { seq, plan: written } = this.options.outbox.ledger.writeEdit(
      source,
      [{ field: args.field, type: change.type, value: change.after }],
      { keepRefused: true },
    );
    // Where planEdit put it: folded into the record's queued edit (the field's entry there before
    // is what an undo brings back), or a new update of its own.
    const folded =
      written.action === 'merge' ? source.ops.find((op) => op.seq === written.seq) : undefined;
    const opSeq = folded?.seq ?? seq;
    if (opSeq === null) {
      result.unchanged += 1;
      return;
    }
    const after = seq === null ? undefined : this.options.outbox.repo.op(seq);
    this.repo.insertRecord(result.bulkEditId as number, {
      recordId,
      opSeq,
      coalesced: folded !== undefined,
      previous: folded?.fields[args.field] ?? null,
      // Null when the value was the field's base: the field left the operation (or it went).
      written: after?.fields[args.field] ?? null,
      // What the fold did to the rest of the operation (an edit counted, a backoff ended), for undo.
      opBefore: folded ? opStatus(folded) : null,
      opAfter: folded && after ? opStatus(after) : null,
    });
    result.queued += 1;
    if (folded) result.coalesced += 1;
  }

  /**
   * Bulk edits an undo would still change the queue of, newest first: changes still queued, or
   * the user's own queued edits they dropped (undo queues those again).
   */
  groups(): BulkGroup[] {
    const modules = new Map<string, string>();
    const moduleName = (portalId: string, moduleId: string) => {
      const key = `${portalId}/${moduleId}`;
      let name = modules.get(key);
      if (name === undefined) {
        // A module a sync found gone (trashed by another admin) by the names it kept.
        name = this.options.mirror.metadata.moduleNames(portalId, moduleId)?.pluralName ?? moduleId;
        modules.set(key, name);
      }
      return name;
    };
    return this.repo
      .groups(BULK_GROUPS_MAX)
      .filter((g) => g.queued + g.reverted > 0)
      .map((g) => ({
        id: g.id,
        portalId: g.portalId,
        moduleId: g.moduleId,
        module: moduleName(g.portalId, g.moduleId),
        field: g.field,
        label: g.label,
        action: g.action,
        value: g.value,
        createdAt: g.createdAt,
        records: g.records,
        planned: g.planned,
        // Not finished, and no apply of this run writing it: the app's end stopped it.
        stopped: !g.finished && !this.applying.has(g.id),
        queued: g.queued,
        sending: g.sending,
        stuck: g.stuck,
        reverted: g.reverted,
      }));
  }

  /**
   * Takes back what the bulk edit queued and has not gone out: its own operations are dropped, and
   * where it folded into an edit queued before, that edit's value is put back. A record edited
   * again since, or whose change went out, keeps what it has. One undo of a bulk edit at a time:
   * another asked meanwhile waits for it, then finds it undone and is refused in words.
   */
  async undo(id: number): Promise<BulkUndone> {
    const before = this.undoing.get(id);
    const mine = (before ?? Promise.resolve()).catch(() => {}).then(() => this.undoNow(id));
    this.undoing.set(id, mine);
    try {
      return await mine;
    } finally {
      if (this.undoing.get(id) === mine) this.undoing.delete(id);
    }
  }

  private async undoNow(id: number): Promise<BulkUndone> {
    const running = this.applying.get(id);
    let neverQueued = 0;
    if (running) {
      running.stop = true;
      await running.finished;
      neverQueued = running.notQueued;
    }
    const bulk = this.repo.bulkEdit(id);
    if (!bulk || bulk.state === 'undone') {
      throw new LedgerError(
        `This bulk edit is no longer queued (undone already, or every change was sent); nothing was changed.`,
      );
    }
    const { outbox } = this.options;
    const rows = this.repo.recordsOf(id);
    const result: BulkUndone = { restored: 0, sent: 0, changedSince: 0, neverQueued };
    const report = this.progress(bulk, 'undo');
    for (let from = 0; from < rows.length; from += this.batch) {
      outbox.repo.transaction(() => {
        for (const row of rows.slice(from, from + this.batch)) {
          const ops = outbox.repo.opsOfRecord(bulk.portalId, row.recordId);
          const step = undoStep(row, bulk.field, ops);
          if (step.kind === 'sent') result.sent += 1;
          else if (step.kind === 'changedSince') result.changedSince += 1;
          else if (step.kind === 'restore') {
            outbox.ledger.restoreField(row.opSeq, bulk.field, row.previous, step.status);
            result.restored += 1;
          } else {
            // The bulk edit reverted the record's own queued edit (dropping its operation).
            outbox.ledger.requeueField(
              { portalId: bulk.portalId, moduleId: bulk.moduleId, recordId: row.recordId },
              row.opSeq,
              bulk.field,
              step.entry,
              step.status,
            );
            result.restored += 1;
          }
        }
      });
      report(Math.min(rows.length, from + this.batch), rows.length);
      await nextTurn();
    }
    this.repo.markUndone(id);
    outbox.queuedElsewhere({ portalId: bulk.portalId, moduleId: bulk.moduleId });
    return result;
  }

  /**
   * The question before a bulk trash (or restore): the records the selection names now, held for
   * the confirm (a filter's 50,000 ids never cross IPC), and how many.
   */
  async askTrash(args: BulkTrashAskArgs): Promise<BulkTrashAsked> {
    const ids = await this.selectionIds(args.portalId, args.moduleId, args.selection);
    const previewId = this.trashQuestions.hold({ args, ids, selected: [...ids].sort() });
    return { previewId, records: ids.length };
  }

  /**
   * Moves the records a question named to the recycle bin (or restores them): one queued op per
   * record. Refused, queuing nothing, when the question is not held, or when its selection names
   * other records now (a sync took some out of the filter or brought others in): the user was
   * asked about those records, not these, and the same count is no proof of the same records.
   */
  async trash({ previewId }: BulkTrashArgs): Promise<BulkTrashed> {
    const { outbox } = this.options;
    const held = this.trashQuestions.take(previewId);
    if (!held) {
      throw new LedgerError(
        `This question is no longer held (it was answered already, is more than ${PREVIEW_HELD_MS / 60_000} minutes old, or newer ones replaced it). Nothing was queued; ask again.`,
      );
    }
    const { args, ids } = held;
    const now = (await this.selectionIds(args.portalId, args.moduleId, args.selection)).sort();
    const moved = selectionDifference(held.selected, now);
    if (moved.joined > 0 || moved.left > 0) throw new LedgerError(trashSelectionMoved(moved, args));
    const result: BulkTrashed = { queued: 0, failed: 0, failures: [] };
    const report = this.progress(args, args.restore ? 'restore' : 'trash');
    for (let from = 0; from < ids.length; from += this.batch) {
      outbox.repo.transaction(() => {
        for (const recordId of ids.slice(from, from + this.batch)) {
          try {
            outbox.ledger.trash(args.portalId, recordId, args.restore);
            result.queued += 1;
          } catch (error) {
            if (!(error instanceof LedgerError)) throw error;
            result.failed += 1;
            if (result.failures.length < BULK_FAILURES_SHOWN_MAX) {
              const name = this.options.mirror.localEdits.record(args.portalId, recordId)?.name;
              result.failures.push({ recordId, name: name ?? recordId, reason: error.message });
            }
          }
        }
      });
      report(Math.min(ids.length, from + this.batch), ids.length);
      outbox.queuedElsewhere({ portalId: args.portalId, moduleId: args.moduleId });
      await nextTurn();
    }
    return result;
  }
}

/** The refusal of a bulk trash (or restore) whose selection names other records than asked about. */
export function trashSelectionMoved(
  { joined, left }: { joined: number; left: number },
  { restore }: { restore: boolean },
): string {
  const n = (count: number) => count.toLocaleString('en-US');
  const parts = [
    left > 0
      ? `${n(left)} ${left === 1 ? 'record no longer matches' : 'records no longer match'}`
      : '',
    joined > 0 ? `${n(joined)} new ${joined === 1 ? 'record matches' : 'records match'}` : '',
  ].filter(Boolean);
  return `${parts.join(' and ')} since you were asked (a sync changed the list). Nothing was ${restore ? 'restored' : 'moved to the recycle bin'}; review the selection and ask again.`;
}
