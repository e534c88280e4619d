/**
 * Views of the log for the Outbox panel and the comments panel: each queued operation with what
 * the user knows it by (its module's and record's names, its fields' labels and types). Reads
 * only.
 */
import type { OutboxEntry, PendingComment } from '../../shared/ipc/areas/outbox';
import type { LocalEditsRepository, StoredRecord } from '../store/mirror/localEditsRepository';
import { statusValueNamed } from './catalogOverlay';
import { loadEditCatalog, type EditCatalog } from './editCatalog';
import type { OutboxRepository } from './outboxRepository';
import type { GoneModule } from './moduleGone';
import { heldRecordError } from './recordsWaitFor';
import { heldBehind, heldConfigError, namesWhatItCreates } from './configQueueHolds';
import { COMMENT_KINDS, typeOf, type OutboxOp } from './outboxTypes';

/** How a configuration operation is shown (its owner, src/main/configure/, says). */
export type ConfigDescriber = (op: OutboxOp) => NonNullable<OutboxEntry['config']>;

/** A module a sync found gone from the service's list, by the names it kept (or undefined). */
export type GoneModuleLookup = (portalId: string, moduleId: string) => GoneModule | undefined;

/** One operation as the Outbox panel lists it. Pure. */
export function outboxEntry(
  op: OutboxOp,
  catalog: EditCatalog | undefined,
  record: StoredRecord | undefined,
  describeConfig?: ConfigDescriber,
): OutboxEntry {
  const config = op.kind === 'config' && describeConfig ? describeConfig(op) : null;
  const label = (field: string) => catalog?.fields.find((f) => f.key === field)?.label ?? field;
  const type = (field: string) => (catalog ? typeOf(catalog.types, field) : 'single_line');
  return {
    id: op.seq,
    portalId: op.portalId,
    moduleId: op.moduleId,
    module: config ? config.target : (catalog?.moduleName ?? null),
    recordId: op.recordId,
    recordName: config
      ? null
      : (record?.name ?? (typeof op.fields.name?.value === 'string' ? op.fields.name.value : null)),
    kind: op.kind,
    state: op.state,
    queuedAt: op.queuedAt,
    updatedAt: op.updatedAt,
    edits: op.edits,
    attempts: op.attempts,
    nextAttemptAt: op.nextAttemptAt,
    error: op.error,
    fields:
      op.kind === 'create' || op.kind === 'update'
        ? Object.entries(op.fields).map(([field, entry]) => {
            // A status is known to the service by its id: named as the queue leaves it, not as
            // the editor showed it when the change was made (a rename queued or delivered since).
            const named = (value: unknown) =>
              catalog && type(field) === 'status'
                ? statusValueNamed(value, catalog.statuses)
                : value;
            return {
              field,
              label: label(field),
              type: type(field),
              base: named(entry.base),
              mine: named(entry.value),
            };
          })
        : [],
    comment: COMMENT_KINDS.has(op.kind) ? { commentId: op.commentId, content: op.content } : null,
    conflict: op.conflict,
    uncertain: op.sentBody !== null,
    config,
  };
}

export interface OutboxListFilter {
  portalId?: string;
  recordId?: string;
  /** At most this many operations of each state, the oldest (in queue order). */
  perState?: number;
}

/**
 * The queue (of a portal, or of one record), each module's catalog read once. A module no longer
 * mirrored (a sync found it gone: trashed by another admin) has no catalog; its record changes
 * name it by the names the sync kept (`goneModule`), not by its id.
 */
export function outboxEntries(
  repo: OutboxRepository,
  edits: LocalEditsRepository,
  filter: OutboxListFilter,
  describeConfig?: ConfigDescriber,
  goneModule: GoneModuleLookup = () => undefined,
): OutboxEntry[] {
  // With perState, only the operations listed are read and parsed: an entry reads its record
  // and module, and a long queue (a bulk edit's 10,000) is mostly operations no one will see.
  const ops =
    filter.perState !== undefined
      ? repo.oldestOpsPerState(filter, filter.perState)
      : filter.portalId !== undefined && filter.recordId !== undefined
        ? repo.opsOfRecord(filter.portalId, filter.recordId)
        : repo.allOps(filter.portalId);
  const catalogs = new Map<string, EditCatalog | undefined>();
  const catalogOf = (op: OutboxOp) => {
    const key = `${op.portalId}/${op.moduleId}`;
    if (!catalogs.has(key))
      catalogs.set(key, loadEditCatalog(repo, op.portalId, op.moduleId, null, null));
    return catalogs.get(key);
  };
  // What a module's record changes wait for (recordsWaitFor.ts), read once per module.
  const holds = new Map<string, OutboxOp | undefined>();
  const heldBy = (op: OutboxOp) => {
    const key = `${op.portalId}/${op.moduleId}`;
    if (!holds.has(key)) holds.set(key, repo.recordsHeldBy(op.portalId, op.moduleId));
    return holds.get(key);
  };
  // A configuration change's queue, read once, for what it waits behind (configQueueHolds.ts).
  const queues = new Map<string, OutboxOp[]>();
  const queueOf = (op: OutboxOp) => {
    const key = `${op.portalId}/${op.recordId}`;
    if (!queues.has(key)) queues.set(key, repo.opsOfRecord(op.portalId, op.recordId));
    return queues.get(key)!;
  };
  const configEntry = (op: OutboxOp) => {
    const entry = outboxEntry(op, undefined, undefined, describeConfig);
    const blocker =
      op.state === 'pending' && op.error === null ? heldBehind(queueOf(op), op) : undefined;
    if (!blocker) return entry;
    const summary = describeConfig?.(blocker).summary ?? blocker.action ?? 'configuration change';
    return { ...entry, error: heldConfigError(blocker, summary, namesWhatItCreates(blocker, op)) };
  };
  return ops.map((op) => {
    if (op.kind === 'config') return configEntry(op);
    const catalog = catalogOf(op);
    let entry = outboxEntry(op, catalog, edits.record(op.portalId, op.recordId));
    if (!catalog) {
      const gone = goneModule(op.portalId, op.moduleId);
      if (gone) entry = { ...entry, module: gone.pluralName };
    }
    const config = op.state === 'pending' ? heldBy(op) : undefined;
    if (!config) return entry;
    const summary = describeConfig?.(config).summary ?? config.action ?? 'configuration change';
    return { ...entry, error: heldRecordError(entry.module ?? op.moduleId, config, summary) };
  });
}

/** A record's queued comment changes, for the comments panel to show beside the mirrored ones. */
export function pendingComments(ops: readonly OutboxOp[]): PendingComment[] {
  return ops
    .filter((op) => COMMENT_KINDS.has(op.kind))
    .map((op) => ({
      opId: op.seq,
      action: op.kind === 'comment_add' ? 'add' : op.kind === 'comment_edit' ? 'edit' : 'delete',
      commentId: op.commentId ?? '',
      content: op.content,
      queuedAt: op.queuedAt,
      state: op.state,
    }));
}
