import type { ExecutionStatus, OverallStatus } from '../../../shared/ipc/areas/router';
import type { AttemptRow, BinEntryRow, EventRow, ExecutionRow } from './routerRows';

export interface ExecutionChange {
  status: ExecutionStatus;
  next_attempt_at: number | null;
  note: string | null;
}

export type AttemptStart = Pick<AttemptRow, 'execution_id' | 'attempt' | 'started_at' | 'request'>;
export type AttemptFinish = Pick<
  AttemptRow,
  'execution_id' | 'attempt' | 'finished_at' | 'response' | 'error' | 'outcome'
>;

export type BinEntryWrite = Omit<BinEntryRow, 'id'>;

/** What one group commit writes, in an order the foreign keys accept (parents first). */
export interface DrainedWrites {
  eventInserts: EventRow[];
  /** Events stored in an earlier commit: `stage` set to routed when `routed`. */
  eventUpdates: { id: string; overall_status: OverallStatus; routed: boolean }[];
  executionInserts: ExecutionRow[];
  executionUpdates: ({ id: string } & ExecutionChange)[];
  /** Complete rows: a start, with its finish merged in when both wait for the same commit. */
  attemptInserts: AttemptRow[];
  attemptFinishes: AttemptFinish[];
  /** Started attempts taken back (never sent), deleted after the inserts. */
  attemptDeletes: { execution_id: string; attempt: number }[];
  binEntries: BinEntryWrite[];
}

interface PendingEvent {
  insert: EventRow | null;
  update: { overall_status: OverallStatus; routed: boolean } | null;
}

interface PendingExecution {
  insert: ExecutionRow | null;
  update: ExecutionChange | null;
}

interface PendingAttempt {
  insert: AttemptRow | null;
  finish: AttemptFinish | null;
  remove?: { execution_id: string; attempt: number };
}

/**
 * The delivery path's writes waiting for the next group commit, merged per row: a row inserted
 * and changed before the commit is written once with its latest values, so an event routed in the
 * same commit it arrives in costs one INSERT instead of an INSERT and an UPDATE. Pure: the
 * repository turns `drain()` into statements.
 */
export class WriteBatch {
  private events = new Map<string, PendingEvent>();
  private executions = new Map<string, PendingExecution>();
  private attempts = new Map<string, PendingAttempt>();
  private binEntries: BinEntryWrite[] = [];

  get isEmpty(): boolean {
    return (
      this.events.size === 0 &&
      this.executions.size === 0 &&
      this.attempts.size === 0 &&
      this.binEntries.length === 0
    );
  }

  insertEvent(row: EventRow): void {
    this.events.set(row.id, { insert: { ...row }, update: null });
  }

  /** The event's overall status; `routed` also moves its stage from received to routed. */
  setOverallStatus(id: string, overallStatus: OverallStatus, routed = false): void {
    const pending = this.events.get(id);
    if (pending?.insert) {
      pending.insert.overall_status = overallStatus;
      if (routed) pending.insert.stage = 'routed';
    } else if (pending?.update) {
      pending.update.overall_status = overallStatus;
      pending.update.routed ||= routed;
    } else {
      this.events.set(id, { insert: null, update: { overall_status: overallStatus, routed } });
    }
  }

  insertExecution(row: ExecutionRow): void {
    this.executions.set(row.id, { insert: { ...row }, update: null });
  }

  updateExecution(id: string, change: ExecutionChange): void {
    const pending = this.executions.get(id);
    if (pending?.insert) Object.assign(pending.insert, change);
    else if (pending) pending.update = { ...change };
    else this.executions.set(id, { insert: null, update: { ...change } });
  }

  startAttempt(row: AttemptStart): void {
    this.attempts.set(attemptKey(row.execution_id, row.attempt), {
      insert: { ...row, finished_at: null, response: null, error: null, outcome: 'pending' },
      finish: null,
    });
  }

  finishAttempt(row: AttemptFinish): void {
    const key = attemptKey(row.execution_id, row.attempt);
    const pending = this.attempts.get(key);
    if (pending?.insert) Object.assign(pending.insert, row);
    else this.attempts.set(key, { insert: null, finish: { ...row } });
  }

  /**
   * Takes back an attempt that was started but never sent (the router closed first): its row goes
   * (or is never written) and the execution returns to `restore`, so the next run sends it anew.
   */
  cancelAttemptStart(executionId: string, attempt: number, restore: ExecutionChange): void {
    const key = attemptKey(executionId, attempt);
    if (this.attempts.get(key)?.insert) this.attempts.delete(key);
    else {
      this.attempts.set(key, {
        insert: null,
        finish: null,
        remove: { execution_id: executionId, attempt },
      });
    }
    this.updateExecution(executionId, restore);
  }

  insertBinEntry(entry: BinEntryWrite): void {
    this.binEntries.push(entry);
  }

  /** Everything pending, merged; the batch is empty afterwards. */
  drain(): DrainedWrites {
    const drained: DrainedWrites = {
      eventInserts: [],
      eventUpdates: [],
      executionInserts: [],
      executionUpdates: [],
      attemptInserts: [],
      attemptFinishes: [],
      attemptDeletes: [],
      binEntries: this.binEntries,
    };
    for (const [id, pending] of this.events) {
      if (pending.insert) drained.eventInserts.push(pending.insert);
      else if (pending.update) drained.eventUpdates.push({ id, ...pending.update });
    }
    for (const [id, pending] of this.executions) {
      if (pending.insert) drained.executionInserts.push(pending.insert);
      else if (pending.update) drained.executionUpdates.push({ id, ...pending.update });
    }
    for (const pending of this.attempts.values()) {
      if (pending.insert) drained.attemptInserts.push(pending.insert);
      else if (pending.finish) drained.attemptFinishes.push(pending.finish);
      else if (pending.remove) drained.attemptDeletes.push(pending.remove);
    }
    this.events = new Map();
    this.executions = new Map();
    this.attempts = new Map();
    this.binEntries = [];
    return drained;
  }
}

const attemptKey = (executionId: string, attempt: number): string => `${executionId}/${attempt}`;
