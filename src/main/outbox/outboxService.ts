/**
 * The outbox as the engine runs it: the ledger (local changes), the replayer (sending), and the
 * events the renderer hears (`outbox.changed` with counts and notices, `records.changed` after
 * every local or replayed change). Whether the service answers and the "Work offline" switch are
 * connectivity's (src/main/connectivity/): the replay holds while the switch is on and goes again
 * as soon as the service answers after it did not.
 */
import type { EditCatalog } from './editCatalog';
import type Database from 'better-sqlite3';
import {
  HISTORY_EXPORT_MAX,
  type HistoryFormat,
  type HistoryPage,
  type HistoryQuery,
} from '../../shared/ipc/areas/outboxHistory';
import type {
  CommentArgs,
  EditForm,
  EditResult,
  OutboxChanged,
  OutboxEntry,
  OutboxNotice,
  OutboxStatus,
  PendingComment,
  Remap,
} from '../../shared/ipc/areas/outbox';
import type { ApiClient } from '../api/client/apiClient';
import type { EventPusher } from '../bridge/eventHub';
import type { Connectivity, ConnectivityState } from '../connectivity/connectivity';
import type { Mirror } from '../store/mirror/mirror';
import { historyCsv, historyFileName, historyJson } from './historyExport';
import { HistoryRepository } from './historyRepository';
import { historyCutoff, HISTORY_PURGE_EVERY_MS } from './historyRetention';
import { LedgerError } from './ledgerError';
import type { OutboxEvents, ReplayedChange } from './outboxEvents';
import { OutboxLedger } from './outboxLedger';
import { OutboxRepository } from './outboxRepository';
import { OutboxReplayer, type ReplayerOptions } from './outboxReplayer';
import type { ConfigDescriber, OutboxListFilter } from './outboxEntries';
import type { OutboxOp, Touched } from './outboxTypes';
import type { Send } from './sendContext';

/** What the outbox needs of the sync service (SyncService provides it). */
export interface OutboxConnection {
  clientForPortal(portalId: string): ApiClient | undefined;
}

export interface OutboxServiceOptions {
  db: Database.Database;
  mirror: Mirror;
  connection: OutboxConnection;
  /** The engine's one source of "online" and of the "Work offline" switch. */
  connectivity: Connectivity;
  /** `outbox.changed` and `records.changed` go through it, at its rates. */
  events: EventPusher;
  /** Start replaying queued work at once (default true; tests drive it). */
  autoReplay?: boolean;
  now?: () => number;
  replay?: Partial<Pick<ReplayerOptions, 'parallel' | 'random' | 'clock'>>;
  log?: { warn(message: string): void };
}

export class OutboxService {
  readonly repo: OutboxRepository;
  readonly history: HistoryRepository;
  readonly ledger: OutboxLedger;
  readonly replayer: OutboxReplayer;
  private readonly listeners = new Set<OutboxEvents>();
  private readonly now: () => number;
  private pendingNotice: OutboxNotice | null = null;
  /** A change was delivered since the replay was last seen idle. */
  private deliveredSinceIdle = false;
  private pendingRemaps: Remap[] = [];
  private wasBusy = false;
  /** Local changes flushed in this turn of the event loop: none, one, or more waiting for its end. */
  private turnFlush: 'none' | 'flushed' | 'more' = 'none';
  private closed = false;
  private readonly unsubscribe: () => void;
  private readonly purgeTimer: ReturnType<typeof setInterval>;

  constructor(private readonly options: OutboxServiceOptions) {
    this.now = options.now ?? Date.now;
    this.repo = new OutboxRepository(options.db, this.now);
    this.history = new HistoryRepository(options.db);
    this.ledger = new OutboxLedger(this.repo, options.mirror.localEdits, this.now, (portalId, id) =>
      options.mirror.metadata.goneModule(portalId, id),
    );
    this.replayer = new OutboxReplayer({
      repo: this.repo,
      history: this.history,
      ledger: this.ledger,
      mirror: options.mirror,
      clientFor: (portalId) => options.connection.clientForPortal(portalId),
      mayRun: () => !options.connectivity.state().workOffline && !this.closed,
      ...options.replay,
      onChange: (touched) => this.changed(touched),
      onReplayed: (change) => this.replayed(change),
      onRemap: (remap) => this.pendingRemaps.push(remap),
      onAttention: (message) => {
        this.pendingNotice = { kind: 'attention', message };
      },
      ...(options.log ? { log: options.log } : {}),
    });
    this.unsubscribe = options.connectivity.onChange((state, was) =>
      this.connectivityChanged(state, was),
    );
    this.purgeHistory();
    this.purgeTimer = setInterval(() => this.purgeHistory(), HISTORY_PURGE_EVERY_MS);
    this.purgeTimer.unref?.();
    if (options.autoReplay !== false) this.replayer.kick();
  }

  /** Deliveries older than 30 days leave the history (at open, then hourly); returns how many. */
  purgeHistory(): number {
    if (this.closed) return 0;
    return this.history.purge(historyCutoff(this.now()));
  }

  /** A page of what was delivered, newest first. */
  historyPage(query: HistoryQuery, offset: number, limit: number): HistoryPage {
    return {
      entries: this.history.page(query, offset, limit),
      total: this.history.count(query),
      offset,
    };
  }

  /** The deliveries matching a search as a file's text; refused in words when too many or none. */
  exportHistory(query: HistoryQuery, format: HistoryFormat) {
    const total = this.history.count(query);
    if (total === 0) {
      throw new LedgerError('No sent change matches this search, so nothing was exported.');
    }
    if (total > HISTORY_EXPORT_MAX) {
      throw new LedgerError(
        `${total.toLocaleString('en-US')} sent changes match; an export takes at most ${HISTORY_EXPORT_MAX.toLocaleString('en-US')}. Nothing was exported: narrow the search or choose fewer kinds.`,
      );
    }
    const entries = this.history.page(query, 0, total);
    return {
      fileName: historyFileName(format, this.now()),
      text: format === 'csv' ? historyCsv(entries) : historyJson(entries),
      rows: entries.length,
    };
  }

  /**
   * Configuration changes are queued here and replayed by the same replayer; their owner
   * (src/main/configure/) says how they are sent and shown.
   */
  useConfig(config: {
    send: Send;
    describe: ConfigDescriber;
    discarded?: (op: OutboxOp) => void;
    /** A record change came back from a send undelivered (waiting, refused, in conflict). */
    recordSettled?: (op: OutboxOp) => void;
  }): void {
    this.replayer.useSend('config', config.send);
    this.replayer.recordSettled = config.recordSettled;
    this.ledger.describeConfig = config.describe;
    this.ledger.configDiscarded = config.discarded;
  }

  /** A configuration change was queued (or undone): the Outbox and the replay hear of it now. */
  configQueued(touched: Touched | null): void {
    this.queued(touched);
  }

  /**
   * Changes queued through the ledger by another owner (a bulk edit, src/main/bulkEdit/), or
   * undone by it: the lists, the Outbox and the replay hear of them now, once per batch.
   */
  queuedElsewhere(touched: Touched | null): void {
    this.queued(touched);
  }

  /** Connects a listener (the event router) to every change the service confirmed. */
  onReplayed(listener: OutboxEvents): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): OutboxStatus {
    const counts = this.repo.counts();
    const { workOffline } = this.options.connectivity.state();
    return {
      counts,
      total: counts.pending + counts.sending + counts.failed + counts.conflict,
      workOffline,
      online: this.options.connectivity.online(),
      nextAttemptAt: workOffline ? null : this.replayer.nextAttemptAt,
      replayed: this.replayer.replayed,
      at: this.now(),
    };
  }

  form(portalId: string, moduleId: string, recordId?: string): EditForm {
    return this.ledger.form(portalId, moduleId, recordId);
  }

  /** Forms of many records read one after another (OutboxLedger.formReader). */
  formReader(): (portalId: string, recordId: string) => EditForm {
    return this.ledger.formReader();
  }

  /** `catalogs`: see OutboxLedger.edit (many edits queued one after another). */
  edit(
    portalId: string,
    recordId: string,
    changes: Record<string, unknown>,
    catalogs?: Map<string, EditCatalog>,
  ): EditResult {
    const { result, touched } = this.ledger.edit(portalId, recordId, changes, catalogs);
    this.queued(touched);
    return result;
  }

  create(
    portalId: string,
    moduleId: string,
    values: Record<string, unknown>,
    catalogs?: Map<string, EditCatalog>,
  ): EditResult {
    const { result, touched } = this.ledger.create(portalId, moduleId, values, catalogs);
    this.queued(touched);
    return result;
  }

  deleteForever(portalId: string, recordId: string): EditResult {
    const { result, touched } = this.ledger.deleteForever(portalId, recordId);
    this.queued(touched);
    return result;
  }

  trash(portalId: string, recordId: string, restore: boolean): EditResult {
    const { result, touched } = this.ledger.trash(portalId, recordId, restore);
    this.queued(touched);
    return result;
  }

  comment(args: CommentArgs): { opId: number | null; commentId: string } {
    const { opId, commentId, touched } = this.ledger.comment(args);
    this.queued(touched);
    return { opId, commentId };
  }

  pendingComments(portalId: string, recordId: string): PendingComment[] {
    return this.ledger.pendingComments(portalId, recordId);
  }

  list(filter?: OutboxListFilter): OutboxEntry[] {
    return this.ledger.list(filter);
  }

  retry(id?: number): OutboxStatus {
    this.ledger.retry(id);
    if (id === undefined) this.replayer.connectionBack();
    this.queued(null);
    return this.status();
  }

  discard(id: number): OutboxStatus {
    this.queued(this.ledger.discard(id));
    return this.status();
  }

  resolve(
    id: number,
    fields: readonly {
      field: string;
      choice: 'mine' | 'theirs' | 'edited';
      value?: string | undefined;
    }[],
    record?: 'mine' | 'theirs',
  ): OutboxStatus {
    this.queued(this.ledger.resolve(id, fields, record));
    return this.status();
  }

  /** The renderer's "Work offline" switch (`outbox.setWorkOffline`), kept by connectivity. */
  setWorkOffline(on: boolean): OutboxStatus {
    this.options.connectivity.setWorkOffline(on);
    return this.status();
  }

  /**
   * The switch turned off, or the service answered again after it did not (a sync, the replay
   * itself): replay now instead of waiting out the backoff.
   */
  private connectivityChanged(state: ConnectivityState, was: ConnectivityState): void {
    const back =
      (was.workOffline && !state.workOffline) ||
      (state.reachable === true && was.reachable === false);
    if (back && !state.workOffline) this.replayer.connectionBack();
    this.changed(null);
  }

  /** Resolves when the replay has nothing in flight and nothing ready (for tests and benchmarks). */
  async idle(): Promise<void> {
    await this.replayer.idle();
    // The state it ended in is pushed now, with the notice a finished replay earns.
    this.changed(null);
    this.flush();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.purgeTimer);
    this.unsubscribe();
    this.replayer.close();
  }

  /**
   * A local change: the first of a turn of the event loop shows at once; those after it in the
   * same turn (an import's slice of rows) show together when the turn ends. A flush per change
   * counted the whole log per change (`status`), and queuing N changes cost N² (bench/outboxQueue).
   */
  private queued(touched: Touched | null): void {
    this.changed(touched);
    if (this.turnFlush === 'none') {
      this.flush();
      this.turnFlush = 'flushed';
      setImmediate(() => {
        const more = this.turnFlush === 'more';
        this.turnFlush = 'none';
        if (more) this.flush();
      });
    } else {
      this.turnFlush = 'more';
    }
    this.replayer.kick();
  }

  private replayed(change: ReplayedChange): void {
    this.deliveredSinceIdle = true;
    for (const listener of this.listeners) {
      try {
        listener.onReplayed(change);
      } catch (error) {
        this.options.log?.warn(`An outbox listener failed: ${String(error)}`);
      }
    }
  }

  /** Something changed: the hub sends `records.changed` and `outbox.changed` at their rates. */
  private changed(touched: Touched | null): void {
    if (this.closed) return;
    if (touched) {
      const { portalId, moduleId } = touched;
      this.options.events.push('records.changed', `${portalId}/${moduleId}`, () => ({
        portalId,
        moduleId,
      }));
    }
    this.options.events.push('outbox.changed', '', () => this.changedPayload());
  }

  /** What waits goes now: a user's own change shows at once. */
  private flush(): void {
    this.options.events.flush('records.changed');
    this.options.events.flush('outbox.changed');
  }

  /** The `outbox.changed` payload as it goes: counts, and the notice and remaps since the last. */
  private changedPayload(): OutboxChanged | null {
    if (this.closed) return null;
    const status = this.status();
    const busy = this.replayer.busy || status.counts.sending > 0;
    let notice = this.pendingNotice;
    // A replay may start and end between two pushes: what it delivered still earns the notice.
    const replayed = this.wasBusy || this.deliveredSinceIdle;
    if (!notice && replayed && !busy && status.counts.pending === 0 && status.total === 0) {
      notice = { kind: 'replayed', message: 'Every queued change was delivered to the service.' };
    }
    this.wasBusy = busy;
    if (!busy) this.deliveredSinceIdle = false;
    this.pendingNotice = null;
    return { ...status, notice, remapped: this.pendingRemaps.splice(0) };
  }
}
