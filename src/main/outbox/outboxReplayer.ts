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
 */
import type { OpConflict } from '../../shared/contracts/outbox';
import type { Comment } from '../../shared/domain/comment';
import type { Entity } from '../../shared/domain/entity';
import type { ApiClient } from '../api/client/apiClient';
import { ApiError, CLIENT_ERROR_CODES } from '../api/client/apiError';
import { ALL_PROJECTS } from '../api/client/endpoints';
import type { Mirror } from '../store/mirror/mirror';
import { mapRecord } from '../sync/mapRecord';
import { compareWithServer } from './compareWithServer';
import { loadEditCatalog, type EditCatalog } from './editCatalog';
import { entityValue, findLostComment, findLostCreate } from './findLostCreate';
import type { ReplayedChange } from './outboxEvents';
import type { OutboxLedger } from './outboxLedger';
import type { OutboxRepository } from './outboxRepository';
import { typeOf, type OpFields, type OutboxOp } from './outboxTypes';
import { replayBackoff } from './replayBackoff';
import { createBody, updateBody } from './requestBody';

/** Ours: records replayed at once; the scheduler's own concurrency and budgets pace the calls. */
export const DEFAULT_PARALLEL_RECORDS = 32;
/** Ours: a signed-out account's changes are looked at again after this long (or at sign-in). */
export const SIGNED_OUT_RETRY_MS = 60_000;
/** Ours: records (or comments) of one name read to find a lost create ("per_page" ≤ 200). */
export const LOOKUP_PAGE = 50;
/**
 * Ours: while a replay runs, a module's edit catalog read from the mirror serves its records for
 * this long (reading it took ~1 ms a record); a metadata pull reaches the replay within it.
 */
export const CATALOG_REUSE_MS = 1_000;

export interface ReplayerClock {
  now(): number;
}

export interface ReplayerOptions {
  repo: OutboxRepository;
  ledger: OutboxLedger;
  mirror: Mirror;
  /** The API client of the account that mirrors a portal; undefined while signed out. */
  clientFor(portalId: string): ApiClient | undefined;
  /** False while the user works offline: nothing starts. */
  mayRun(): boolean;
  clock?: ReplayerClock;
  parallel?: number;
  random?: () => number;
  /** An operation changed state (sent, failed, waiting, in conflict). */
  onChange(touched: { portalId: string; moduleId: string } | null): void;
  onReplayed(change: ReplayedChange): void;
  onRemap(remap: { portalId: string; kind: 'record' | 'comment'; from: string; to: string }): void;
  onAttention(message: string): void;
  log?: { warn(message: string): void };
}

type Outcome = 'done' | 'stop';

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

function isNetwork(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === null &&
    (error.errorCode === CLIENT_ERROR_CODES.network ||
      error.errorCode === CLIENT_ERROR_CODES.timeout)
  );
}

function isAbort(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

export class OutboxReplayer {
  /** Records being replayed (portal and record id), with the operation each is sending. */
  private readonly active = new Map<string, number>();
  private readonly clock: ReplayerClock;
  private readonly parallel: number;
  private readonly random: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  /** While the connection is down, nothing starts before this (epoch ms). */
  private heldUntil = 0;
  private networkFailures = 0;
  private closed = false;
  private readonly abort = new AbortController();
  private idleWaiters: (() => void)[] = [];
  /** Edit catalogs by portal and module, while records are in flight (see CATALOG_REUSE_MS). */
  private readonly catalogs = new Map<string, { catalog: EditCatalog; readAt: number }>();
  replayed = 0;

  constructor(private readonly options: ReplayerOptions) {
    this.clock = options.clock ?? { now: Date.now };
    this.parallel = Math.max(1, options.parallel ?? DEFAULT_PARALLEL_RECORDS);
    this.random = options.random ?? Math.random;
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

  /** Look for work now. */
  kick(): void {
    if (this.closed) return;
    queueMicrotask(() => this.pump());
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
        if (!op) continue;
        this.active.set(key, op.seq);
        void this.run(op).finally(() => {
          this.active.delete(key);
          this.pump();
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
    } catch (error) {
      if (this.closed && isAbort(error)) return; // stays claimed: a restart resumes it safely
      this.failed(op, error);
    }
    this.options.onChange(touched);
  }

  /** Classifies a failure: wait and retry, hold the replay (offline), or stop the record. */
  private failed(op: OutboxOp, error: unknown): void {
    const repo = this.options.repo;
    const current = repo.op(op.seq);
    if (!current) return;
    const keepSent = current.sentBody !== null;
    const message = error instanceof Error ? error.message : String(error);
    const now = this.clock.now();
    if (error instanceof ApiError && error.kind === 'permanent') {
      repo.markFailed(op.seq, message);
      this.options.onAttention(
        `A change to record ${op.recordId} was refused by the service: ${message}`,
      );
      return;
    }
    if (isNetwork(error)) {
      this.networkFailures++;
      this.heldUntil = now + replayBackoff(this.networkFailures, this.random);
      repo.markWaiting(op.seq, {
        nextAttemptAt: null,
        error: message,
        keepSent,
        countAttempt: !keepSent,
      });
      this.wakeAt(this.heldUntil);
      return;
    }
    const wait =
      error instanceof ApiError && error.kind === 'rate' && error.retryAfterSeconds !== null
        ? error.retryAfterSeconds * 1000
        : error instanceof ApiError && error.kind === 'auth'
          ? SIGNED_OUT_RETRY_MS
          : replayBackoff(current.attempts + 1, this.random);
    if (!(error instanceof ApiError))
      this.options.log?.warn(`Outbox replay of operation ${op.seq} failed: ${message}`);
    repo.markWaiting(op.seq, {
      nextAttemptAt: now + wait,
      error: message,
      keepSent,
      countAttempt: !keepSent,
    });
  }

  private catalog(op: OutboxOp): EditCatalog {
    const key = `${op.portalId}\u0000${op.moduleId}`;
    const now = this.clock.now();
    const kept = this.catalogs.get(key);
    if (kept && now - kept.readAt < CATALOG_REUSE_MS) return kept.catalog;
    const catalog = loadEditCatalog(this.options.repo, op.portalId, op.moduleId, null, null);
    if (catalog) this.catalogs.set(key, { catalog, readAt: now });
    else this.catalogs.delete(key);
    if (!catalog) {
      throw new ApiError({
        kind: 'permanent',
        status: null,
        errorCode: 'NOT_MIRRORED',
        message: `Module ${op.moduleId} is no longer in the local mirror, so PortalDesk does not know where to send this change. It is kept; sync the portal, then retry.`,
        endpoint: { name: 'outbox', label: 'outbox' },
      });
    }
    return catalog;
  }

  private args(op: OutboxOp, catalog: EditCatalog) {
    return {
      portal_id: op.portalId,
      scope_path: ALL_PROJECTS,
      module_api_name: catalog.moduleApiName,
    };
  }

  private process(op: OutboxOp, client: ApiClient): Promise<Outcome> {
    switch (op.kind) {
      case 'update':
        return this.update(op, client);
      case 'create':
        return this.create(op, client);
      case 'trash':
      case 'restore':
        return this.trash(op, client);
      case 'comment_add':
        return this.commentAdd(op, client);
      case 'comment_edit':
        return this.commentEdit(op, client);
      case 'comment_delete':
        return this.commentDelete(op, client);
    }
  }

  private get call() {
    return { priority: 'user' as const, signal: this.abort.signal };
  }

  private storeEntity(op: OutboxOp, entity: Entity): void {
    this.options.mirror.records.upsertRecords([mapRecord(op.portalId, op.moduleId, entity)]);
  }

  private conflict(
    op: OutboxOp,
    kind: OpConflict['kind'],
    fields: OpFields,
    catalog: EditCatalog,
    theirs: (f: string) => unknown,
  ): OpConflict {
    return {
      kind,
      foundAt: new Date(this.clock.now()).toISOString(),
      fields: Object.entries(fields).map(([field, entry]) => {
        const type = typeOf(catalog.types, field);
        return {
          field,
          label: catalog.fields.find((f) => f.key === field)?.label ?? field,
          type,
          base: entry.base,
          mine: entry.value,
          theirs: theirs(field),
          editable: ['name', 'description', 'single_line', 'multi_line'].includes(type),
        };
      }),
    };
  }

  /** The record is gone or trashed on the service: the whole operation waits for the user. */
  private recordGone(
    op: OutboxOp,
    kind: 'deleted' | 'trashed',
    catalog: EditCatalog,
    entity?: Entity,
  ): Outcome {
    const repo = this.options.repo;
    repo.transaction(() => {
      if (entity) this.storeEntity(op, entity);
      repo.markConflict(
        op.seq,
        op.fields,
        this.conflict(op, kind, op.fields, catalog, (f) =>
          entity ? entityValue(entity, f) : null,
        ),
      );
      this.options.ledger.refreshOverlay(op.portalId, op.recordId);
    });
    this.options.onAttention(
      kind === 'deleted'
        ? `Record ${op.recordId} was deleted on the service; your change is kept until you choose what to do.`
        : `Record ${op.recordId} was moved to the trash on the service; your change is kept until you choose what to do.`,
    );
    return 'stop';
  }

  private async update(op: OutboxOp, client: ApiClient): Promise<Outcome> {
    const repo = this.options.repo;
    const catalog = this.catalog(op);
    const args = { ...this.args(op, catalog), entity_id: op.recordId };
    let server: Entity;
    try {
      server = await client.getEntity(args, this.call);
    } catch (error) {
      if (isNotFound(error)) return this.recordGone(op, 'deleted', catalog);
      throw error;
    }
    if (server.trashed_time !== null) return this.recordGone(op, 'trashed', catalog, server);
    const compared = compareWithServer(op.fields, catalog.types, (f) => entityValue(server, f));
    let answer = server;
    if (compared.send.length > 0) {
      const body = updateBody(op.fields, catalog.types, compared.send);
      repo.markSending(op.seq, JSON.stringify(body));
      try {
        answer = await client.updateEntity(
          { ...args, body },
          { ...this.call, subject: `the change to record "${server.name}"` },
        );
      } catch (error) {
        if (isNotFound(error)) return this.recordGone(op, 'deleted', catalog);
        throw error;
      }
    }
    const delivered = [...compared.send, ...compared.applied];
    const rest: OpFields = {};
    for (const field of compared.conflicts) rest[field] = op.fields[field]!;
    repo.transaction(() => {
      this.storeEntity(op, answer);
      if (compared.conflicts.length > 0) {
        repo.markConflict(
          op.seq,
          rest,
          this.conflict(op, 'fields', rest, catalog, (f) => entityValue(server, f)),
        );
      } else {
        repo.deleteOp(op.seq);
      }
      this.options.ledger.refreshOverlay(op.portalId, op.recordId);
    });
    if (compared.send.length > 0) {
      this.options.onReplayed({
        portalId: op.portalId,
        moduleId: op.moduleId,
        recordId: answer.id,
        kind: 'update',
        data: { record: answer, fields: delivered },
      });
    }
    if (compared.conflicts.length > 0) {
      const count = compared.conflicts.length;
      const fields = count === 1 ? '1 field' : `${count} fields`;
      this.options.onAttention(
        `${fields} of record "${answer.name}" ${count === 1 ? 'was' : 'were'} changed on the service since your edit; choose which value to keep in the Outbox.`,
      );
      return 'stop';
    }
    return 'done';
  }

  private async create(op: OutboxOp, client: ApiClient): Promise<Outcome> {
    const repo = this.options.repo;
    const catalog = this.catalog(op);
    const args = this.args(op, catalog);
    const body = createBody(op.fields, catalog.types);
    const entity = await this.createOnce(
      op,
      body,
      async (sentAt) => {
        const name = String(op.fields.name?.value ?? '');
        const page = await client.listEntities(
          {
            ...args,
            query: {
              filter: {
                criteria: [{ field_name: 'name', criteria_condition: 'is', value: [name] }],
                pattern: '1',
              },
              sort_by: 'DESC(created_time)',
              per_page: LOOKUP_PAGE,
            },
          },
          this.call,
        );
        return findLostCreate(
          page.items,
          op.fields,
          catalog.types,
          sentAt,
          repo.adoptedIds(op.portalId, 'record'),
        );
      },
      () =>
        client.createEntity(
          { ...args, body: body as never },
          { ...this.call, subject: 'the new record' },
        ),
    );
    return this.created(op, entity);
  }

  /**
   * Sends a create at most once across crashes: the body is written as sent before the call, and
   * when an earlier send's answer was lost, `findLost` looks for what it made before resending.
   */
  private async createOnce<T>(
    op: OutboxOp,
    body: unknown,
    findLost: (sentAt: string) => Promise<T | null>,
    send: () => Promise<T>,
  ): Promise<T> {
    if (op.sentBody !== null && op.sentAt !== null) {
      const found = await findLost(op.sentAt);
      if (found) return found;
    }
    this.options.repo.markSending(op.seq, JSON.stringify(body));
    return send();
  }

  private created(op: OutboxOp, entity: Entity): Outcome {
    const repo = this.options.repo;
    repo.transaction(() => {
      this.storeEntity(op, entity);
      repo.deleteOp(op.seq);
      this.options.mirror.localEdits.moveEdits(op.portalId, op.recordId, entity.id);
      repo.remapRecord(op.portalId, op.recordId, entity.id);
      this.options.mirror.localEdits.deleteLocalRecord(op.portalId, op.recordId);
      this.options.ledger.refreshOverlay(op.portalId, entity.id);
    });
    this.options.onRemap({
      portalId: op.portalId,
      kind: 'record',
      from: op.recordId,
      to: entity.id,
    });
    this.options.onReplayed({
      portalId: op.portalId,
      moduleId: op.moduleId,
      recordId: entity.id,
      kind: 'create',
      data: { record: entity },
    });
    return 'done';
  }

  private async trash(op: OutboxOp, client: ApiClient): Promise<Outcome> {
    const repo = this.options.repo;
    const catalog = this.catalog(op);
    const args = { ...this.args(op, catalog), entity_id: op.recordId };
    const restore = op.kind === 'restore';
    let server: Entity;
    try {
      server = await client.getEntity(args, this.call);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      if (restore) return this.recordGone(op, 'deleted', catalog);
      // Trashing what is gone: done; the mirror drops it.
      repo.transaction(() => {
        repo.deleteOp(op.seq);
        this.options.mirror.localEdits.deleteServerCopy(op.portalId, op.recordId);
      });
      return 'done';
    }
    let answer = server;
    if ((server.trashed_time !== null) === restore) {
      repo.markSending(op.seq, JSON.stringify({ [op.kind]: op.recordId }));
      answer = restore
        ? await client.restoreEntity(args, this.call)
        : await client.trashEntity(args, this.call);
      this.options.onReplayed({
        portalId: op.portalId,
        moduleId: op.moduleId,
        recordId: op.recordId,
        kind: restore ? 'update' : 'delete',
        data: { record: answer },
      });
    }
    repo.transaction(() => {
      repo.deleteOp(op.seq);
      this.storeEntity(op, answer);
    });
    return 'done';
  }

  private commentArgs(op: OutboxOp, catalog: EditCatalog) {
    return { ...this.args(op, catalog), entity_id: op.recordId };
  }

  private async commentAdd(op: OutboxOp, client: ApiClient): Promise<Outcome> {
    const repo = this.options.repo;
    const catalog = this.catalog(op);
    const args = this.commentArgs(op, catalog);
    const content = op.content ?? '';
    const comment = await this.createOnce(
      op,
      { content },
      async (sentAt) => {
        const page = await client.listComments(
          { ...args, query: { sort_by: 'DESC(created_time)', per_page: LOOKUP_PAGE } },
          this.call,
        );
        return findLostComment(
          page.items,
          content,
          sentAt,
          repo.adoptedIds(op.portalId, 'comment'),
        );
      },
      () =>
        client.createComment(
          { ...args, body: { content } },
          { ...this.call, subject: 'the new comment' },
        ),
    );
    return this.commentAdded(op, comment);
  }

  private commentAdded(op: OutboxOp, comment: Comment): Outcome {
    const repo = this.options.repo;
    repo.transaction(() => {
      this.storeComment(op, comment);
      repo.deleteOp(op.seq);
      if (op.commentId !== null) repo.remapComment(op.portalId, op.commentId, comment.id);
    });
    if (op.commentId !== null)
      this.options.onRemap({
        portalId: op.portalId,
        kind: 'comment',
        from: op.commentId,
        to: comment.id,
      });
    this.commentReplayed(op, comment.id, 'add');
    return 'done';
  }

  /** Tells the router a comment of the record changed on the service (an update of the record). */
  private commentReplayed(
    op: OutboxOp,
    commentId: string,
    action: 'add' | 'edit' | 'delete',
  ): void {
    this.options.onReplayed({
      portalId: op.portalId,
      moduleId: op.moduleId,
      recordId: op.recordId,
      kind: 'update',
      data: { record: null, comment: { id: commentId, action } },
    });
  }

  private storeComment(op: OutboxOp, comment: Comment): void {
    // A comment belongs to a mirrored record; one whose record left the mirror is not kept.
    const edits = this.options.mirror.localEdits;
    if (!edits.record(op.portalId, op.recordId)) return;
    const now = new Date(this.clock.now()).toISOString();
    edits.upsertComment({
      portalId: op.portalId,
      recordId: op.recordId,
      id: comment.id,
      content: comment.content,
      attachments: comment.attachments.map((a) => a.attachment_id),
      createdBy: comment.created_by?.zpuid ?? null,
      createdTime: comment.created_time ?? now,
      lastUpdatedTime: comment.last_updated_time ?? comment.created_time ?? now,
    });
  }

  private async commentEdit(op: OutboxOp, client: ApiClient): Promise<Outcome> {
    const repo = this.options.repo;
    const catalog = this.catalog(op);
    const args = { ...this.commentArgs(op, catalog), comment_id: op.commentId ?? '' };
    const mine = op.content ?? '';
    const contentConflict = (kind: OpConflict['kind'], theirs: string | null): Outcome => {
      repo.markConflict(
        op.seq,
        {},
        {
          kind,
          foundAt: new Date(this.clock.now()).toISOString(),
          fields: [
            {
              field: 'content',
              label: 'Comment',
              type: 'multi_line',
              base: op.baseContent,
              mine,
              theirs,
              editable: true,
            },
          ],
        },
      );
      this.options.onAttention(
        `A comment you edited on record ${op.recordId} was ${kind === 'deleted' ? 'deleted' : 'changed'} on the service; choose what to keep in the Outbox.`,
      );
      return 'stop';
    };
    let server;
    try {
      server = await client.getComment(args, this.call);
    } catch (error) {
      if (isNotFound(error)) return contentConflict('deleted', null);
      throw error;
    }
    let answer = server;
    if (server.content !== mine) {
      if (server.content !== (op.baseContent ?? '')) {
        repo.transaction(() => this.storeComment(op, server));
        return contentConflict('fields', server.content);
      }
      repo.markSending(op.seq, JSON.stringify({ content: mine }));
      answer = await client.updateComment(
        { ...args, body: { content: mine } },
        { ...this.call, subject: 'the changed comment' },
      );
    }
    repo.transaction(() => {
      this.storeComment(op, answer);
      repo.deleteOp(op.seq);
    });
    this.commentReplayed(op, answer.id, 'edit');
    return 'done';
  }

  private async commentDelete(op: OutboxOp, client: ApiClient): Promise<Outcome> {
    const repo = this.options.repo;
    const catalog = this.catalog(op);
    const args = { ...this.commentArgs(op, catalog), comment_id: op.commentId ?? '' };
    repo.markSending(op.seq, JSON.stringify({ delete: op.commentId }));
    try {
      await client.deleteComment(args, this.call);
    } catch (error) {
      // Gone already (deleted by the lost first send, or by someone else): the goal is reached.
      if (!isNotFound(error)) throw error;
    }
    repo.transaction(() => {
      if (op.commentId !== null) {
        this.options.mirror.localEdits.deleteComment(op.portalId, op.commentId);
      }
      repo.deleteOp(op.seq);
    });
    this.commentReplayed(op, op.commentId ?? '', 'delete');
    return 'done';
  }
}
