/**
 * Sends the outbox to the service: per record strictly in queue order (only a record's first
 * operation may go), records in parallel, every call through the account's API client at priority
 * `user` (ahead of background sync, within the same rate budgets).
 *
 * Exactly once, across crashes: an operation is claimed (`sending`, nothing folded into it any
 * more), then the body it will send is written in the same state BEFORE the request leaves. A
 * `sent_body` found after a restart, a timeout or a reset means "the service may have applied
 * it": an update is compared with a fresh GET first (a field already holding my value counts as
 * delivered, so nothing is sent twice); a create or comment is looked up by its values before
 * any resend.
 *
 * Failures: 5xx, timeouts and lost connections wait and retry with backoff (no connection also
 * holds the whole replay until the connection is back); a 4xx stops that record's queue with the
 * service's reason; a record deleted or trashed on the service, or a field changed there since the
 * edit, becomes a conflict for the user.
 *
 * This class owns the scheduling (which records go, when to look again, the hold while offline);
 * the sends per kind are sendRecord.ts and sendComment.ts, what a failure means replayFailure.ts.
 */
import type { ApiClient } from '../api/client/apiClient';
import { writeDelivery } from './deliveryHistory';
import { EditCatalogCache } from './editCatalogCache';
import { ExchangeRecorder } from './exchangeRecorder';
import type { OpKind, OutboxOp } from './outboxTypes';
import { replayBackoff } from './replayBackoff';
import {
  ChangeRefused,
  classifyFailure,
  isAbort,
  serviceActed,
  SIGNED_OUT_RETRY_MS,
} from './replayFailure';
import type { Outcome, ReplayEffects, Send, SendContext } from './sendContext';
import { sendCommentAdd, sendCommentDelete, sendCommentEdit } from './sendComment';
import { sendCreate, sendDeleteForever, sendTrash, sendUpdate } from './sendRecord';

/** Configuration changes are sent by their owner (src/main/configure/), set with `useSend`. */
const noConfigSend: Send = () =>
  Promise.reject(new ChangeRefused('Configuration changes cannot be sent by this engine.'));

/** The send of each kind of operation. */
const SENDS: Record<OpKind, Send> = {
  config: noConfigSend,
  update: sendUpdate,
  create: sendCreate,
  trash: sendTrash,
  restore: sendTrash,
  delete: sendDeleteForever,
  comment_add: sendCommentAdd,
  comment_edit: sendCommentEdit,
  comment_delete: sendCommentDelete,
};

/** Ours: records replayed at once; the scheduler's own concurrency and budgets pace the calls. */
export const DEFAULT_PARALLEL_RECORDS = 32;

export interface ReplayerClock {
  now(): number;
}

export interface ReplayerOptions extends ReplayEffects {
  /** The API client of the account that mirrors a portal; undefined while signed out. */
  clientFor(portalId: string): ApiClient | undefined;
  /** False while the user works offline: nothing starts. */
  mayRun(): boolean;
  clock?: ReplayerClock;
  parallel?: number;
  random?: () => number;
  /** An operation changed state (sent, failed, waiting, in conflict). */
  onChange(touched: { portalId: string; moduleId: string } | null): void;
  log?: { warn(message: string): void };
}

export class OutboxReplayer {
  /** Records being replayed (portal and record id), with the operation each is sending. */
  private readonly active = new Map<string, number>();
  /**
   * Creates in flight per portal and module, and whether one of them looks a lost one up. A
   * lookup adopts a record of the same values made after its send: while it runs, no other create
   * of the module may go, or it would adopt that one's record (two identical creates, one record).
   */
  private readonly creates = new Map<string, { running: number; lookingUp: boolean }>();
  private readonly clock: ReplayerClock;
  private readonly parallel: number;
  private readonly random: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  /** A look for work (`pump`) is due in the next turn of the event loop. */
  private lookScheduled = false;
  /** While the connection is down, nothing starts before this (epoch ms). */
  private heldUntil = 0;
  private networkFailures = 0;
  private closed = false;
  private readonly abort = new AbortController();
  private idleWaiters: (() => void)[] = [];
  /** Edit catalogs by portal and module, while records are in flight. */
  private readonly catalogs: EditCatalogCache;
  /** What the per-kind sends (sendRecord.ts, sendComment.ts) share; `contextFor` adds the op's. */
  private readonly send: Omit<SendContext, 'delivered' | 'partlyDelivered'>;
  private readonly sends: Record<OpKind, Send> = { ...SENDS };
  replayed = 0;

  constructor(private readonly options: ReplayerOptions) {
    this.clock = options.clock ?? { now: Date.now };
    this.parallel = Math.max(1, options.parallel ?? DEFAULT_PARALLEL_RECORDS);
    this.random = options.random ?? Math.random;
    const now = () => this.clock.now();
    this.catalogs = new EditCatalogCache(options.repo, now, (portalId, moduleId) =>
      options.mirror.metadata.goneModule(portalId, moduleId),
    );
    this.send = {
      repo: options.repo,
      history: options.history,
      ledger: options.ledger,
      mirror: options.mirror,
      onReplayed: (change) => options.onReplayed(change),
      onRemap: (remap) => options.onRemap(remap),
      onAttention: (message) => options.onAttention(message),
      now,
      call: { priority: 'user', signal: this.abort.signal },
      catalog: (op) => this.catalogs.get(op),
      warn: (message) => options.log?.warn(message),
    };
  }

  /** The context of one operation's send: its calls' answers are kept for its history row. */
  private contextFor(): SendContext {
    const recorder = new ExchangeRecorder();
    const { repo, history, mirror, ledger } = this.options;
    const stores = {
      repo,
      history,
      edits: mirror.localEdits,
      catalog: this.send.catalog,
      describeConfig: ledger.describeConfig,
    };
    const answeredAt = () => new Date(this.clock.now()).toISOString();
    return {
      ...this.send,
      call: { ...this.send.call, onAnswer: recorder.observe },
      delivered: (op, options) => {
        writeDelivery(stores, op, recorder, answeredAt(), options);
        repo.deleteOp(op.seq);
      },
      partlyDelivered: (op, options) => writeDelivery(stores, op, recorder, answeredAt(), options),
    };
  }

  /**
   * Told when a record's create or update is no longer being sent: back from a send still queued
   * (no answer, an answer lost, refused, in conflict), or delivered (then gone, told as it was
   * sent). The configuration's owner makes an undelivered one follow what was queued while it was
   * in flight, and lets go of a delivered one there at once, not at its next change (which would
   * then rewrite the queue even when it refuses): src/main/configure/queuedRecordOptions.ts,
   * followSettledRecords.
   */
  recordSettled: ((op: OutboxOp) => void) | undefined;

  /** Sets the send of a kind whose owner lives outside the outbox (configuration changes). */
  useSend(kind: OpKind, send: Send): void {
    this.sends[kind] = send;
  }

  /** When the replay will next look again while it waits (held offline or backing off). */
  get nextAttemptAt(): number | null {
    if (this.heldUntil > this.clock.now()) return this.heldUntil;
    return Number.isFinite(this.timerAt) ? this.timerAt : null;
  }

  get busy(): boolean {
    return this.active.size > 0;
  }

  /** The connection is back (a sync got through, or the user asked): go now. */
  connectionBack(): void {
    this.heldUntil = 0;
    this.networkFailures = 0;
    this.kick();
  }

  /**
   * Look for work in the next turn of the event loop. Kicks before it share that one look: a
   * records import queues a slice of rows per turn (a microtask between rows), and a look per row
   * made queuing N rows cost N looks.
   */
  kick(): void {
    if (this.closed || this.lookScheduled) return;
    this.lookScheduled = true;
    setImmediate(() => {
      this.lookScheduled = false;
      this.pump();
    });
  }

  /** Resolves when nothing is in flight and nothing is ready to go (waiting ops may remain). */
  idle(): Promise<void> {
    if (this.active.size === 0 && !this.hasReadyWork()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops starting work and aborts nothing already claimed: a restart resumes it safely. */
  close(): void {
    this.closed = true;
    this.abort.abort(new DOMException('PortalDesk is closing.', 'AbortError'));
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private hasReadyWork(): boolean {
    if (this.closed || !this.options.mayRun() || this.heldUntil > this.clock.now()) return false;
    const now = this.clock.now();
    return this.options.repo
      .readyHeads(now)
      .some((head) => this.options.clientFor(head.portalId) !== undefined);
  }

  private wakeAt(at: number): void {
    if (this.closed || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Infinity;
        this.pump();
      },
      Math.max(0, at - this.clock.now()),
    );
    this.timer.unref?.();
  }

  private pump(): void {
    if (this.closed) return;
    const now = this.clock.now();
    if (this.options.mayRun() && this.heldUntil > now) this.wakeAt(this.heldUntil);
    if (this.options.mayRun() && this.heldUntil <= now && this.active.size < this.parallel) {
      const repo = this.options.repo;
      const free = this.parallel - this.active.size;
      for (const head of repo.readyHeads(now, free, this.active.values())) {
        const key = `${head.portalId}\u0000${head.recordId}`;
        if (this.active.has(key)) continue;
        const op = repo.op(head.seq);
        if (!op || !this.mayStartCreate(op)) continue;
        this.active.set(key, op.seq);
        const release = this.holdCreate(op);
        void this.run(op).finally(() => {
          release();
          this.active.delete(key);
          this.kick();
        });
      }
      // With every slot busy, a finishing record pumps again; otherwise wake for the next backoff.
      if (this.active.size < this.parallel) {
        const earliest = repo.nextAttemptAt(now);
        if (earliest !== null) this.wakeAt(earliest);
      }
    }
    if (this.active.size === 0) {
      this.catalogs.clear();
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /**
   * A create that will look a lost send up (`sentBody`) goes alone among its module's creates; any
   * other waits while such a one runs. Other kinds always may: a finished create kicks the next.
   */
  private mayStartCreate(op: OutboxOp): boolean {
    if (op.kind !== 'create') return true;
    const creates = this.creates.get(`${op.portalId}\u0000${op.moduleId}`);
    if (!creates) return true;
    return op.sentBody !== null ? creates.running === 0 : !creates.lookingUp;
  }

  /** Counts a create in flight until the returned function is called. */
  private holdCreate(op: OutboxOp): () => void {
    if (op.kind !== 'create') return () => undefined;
    const key = `${op.portalId}\u0000${op.moduleId}`;
    const creates = this.creates.get(key) ?? { running: 0, lookingUp: false };
    creates.running++;
    if (op.sentBody !== null) creates.lookingUp = true;
    this.creates.set(key, creates);
    return () => {
      creates.running--;
      if (op.sentBody !== null) creates.lookingUp = false;
      if (creates.running === 0) this.creates.delete(key);
    };
  }

  private async run(op: OutboxOp): Promise<void> {
    const client = this.options.clientFor(op.portalId);
    const touched = { portalId: op.portalId, moduleId: op.moduleId };
    if (!client) {
      this.options.repo.markWaiting(op.seq, {
        nextAttemptAt: this.clock.now() + SIGNED_OUT_RETRY_MS,
        error:
          'The account that mirrors this portal is signed out; sign in again to send this change.',
        keepSent: op.sentBody !== null,
      });
      this.options.onChange(touched);
      return;
    }
    if (!this.options.repo.claim(op.seq)) return;
    this.options.onChange(touched);
    try {
      const outcome = await this.process(op, client);
      this.networkFailures = 0;
      if (outcome === 'done') this.replayed++;
      // Stopped in conflict (not refused: that is `failed`), the change holds its records.
      const held =
        outcome === 'stop' && this.options.repo.op(op.seq)?.state === 'conflict'
          ? this.recordsHeld(op)
          : null;
      if (held) this.options.onAttention(`${held} resolve or discard it.`);
    } catch (error) {
      if (this.closed && isAbort(error)) return; // stays claimed: a restart resumes it safely
      this.failed(op, error);
    }
    if (op.kind === 'update' || op.kind === 'create') {
      // Delivered (gone: told as it was sent) or back still queued, it is no longer in flight.
      const settled = this.options.repo.op(op.seq);
      if (!settled || settled.state !== 'sending') this.recordSettled?.(settled ?? op);
    }
    this.options.onChange(touched);
  }

  /** Acts on classifyFailure's verdict: stop the record, hold the replay, or wait and retry. */
  private failed(op: OutboxOp, error: unknown): void {
    const repo = this.options.repo;
    const current = repo.op(op.seq);
    if (!current) return;
    // A request that left was counted when it was marked sending (markSending): count the others.
    const keepSent = current.sentBody !== null;
    const verdict = classifyFailure(error, current.attempts, this.random);
    const now = this.clock.now();
    if (verdict.kind === 'refused') {
      repo.markFailed(op.seq, verdict.message, keepSent && serviceActed(error));
      const held = this.recordsHeld(op);
      this.options.onAttention(
        op.kind === 'config'
          ? `A configuration change was refused: ${verdict.message}${held ? ` ${held} retry or discard it.` : ''}`
          : `A change to record ${op.recordId} was refused by the service: ${verdict.message}`,
      );
      return;
    }
    if (verdict.kind === 'offline') {
      this.networkFailures++;
      this.heldUntil = now + replayBackoff(this.networkFailures, this.random);
      repo.markWaiting(op.seq, {
        nextAttemptAt: null,
        error: verdict.message,
        keepSent,
        countAttempt: !keepSent,
      });
      this.wakeAt(this.heldUntil);
      return;
    }
    if (verdict.unexpected)
      this.options.log?.warn(`Outbox replay of operation ${op.seq} failed: ${verdict.message}`);
    repo.markWaiting(op.seq, {
      nextAttemptAt: now + verdict.waitMs,
      error: verdict.message,
      keepSent,
      countAttempt: !keepSent,
    });
  }

  /**
   * Words for a configuration change that stopped while its module's record changes wait for it
   * (recordsWaitFor.ts), so they never wait unseen; null when none waits.
   */
  private recordsHeld(op: OutboxOp): string | null {
    const repo = this.options.repo;
    // This change holds them: it changes the module's fields or options, or is stuck before one
    // that does in the same queue.
    if (op.kind !== 'config' || repo.recordsHeldBy(op.portalId, op.moduleId)?.seq !== op.seq)
      return null;
    const waiting = repo.recordOpsOfModule(op.portalId, op.moduleId);
    if (waiting === 0) return null;
    // Named as mirrored, else as a sync kept it when it found the module gone (modules_gone).
    const module =
      this.options.mirror.metadata.moduleNames(op.portalId, op.moduleId)?.pluralName ??
      `module ${op.moduleId}`;
    return `${waiting === 1 ? 'A record change' : `${waiting.toLocaleString('en-US')} record changes`} of ${module} wait${waiting === 1 ? 's' : ''} for it in the Outbox and go${waiting === 1 ? 'es' : ''} once it is delivered or discarded:`;
  }

  private process(op: OutboxOp, client: ApiClient): Promise<Outcome> {
    return this.sends[op.kind](this.contextFor(), op, client);
  }
}
