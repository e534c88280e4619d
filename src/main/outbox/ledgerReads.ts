/**
 * What the ledger's actions read before they change anything: the record, its module's catalog,
 * a queued operation. Each is refused in words (LedgerError) when it is missing, so an action
 * that gets past its reads has what it needs and a refused one has written nothing.
 */
import type { LocalEditsRepository, StoredRecord } from '../store/mirror/localEditsRepository';
import { loadEditCatalog, type EditCatalog } from './editCatalog';
import { LedgerError } from './ledgerError';
import type { OutboxRepository } from './outboxRepository';
import type { OutboxOp } from './outboxTypes';
import { overlayOf } from './overlayOf';

/** The two stores a change writes (the outbox's own tables, the mirror's) and the clock. */
export interface LedgerStores {
  repo: OutboxRepository;
  edits: LocalEditsRepository;
  now: () => number;
}

/** The id of a status value in the API's shape (`{id, name, ...}`), else null. */
export function statusIdOf(value: unknown): string | null {
  return value && typeof value === 'object' && 'id' in value
    ? String((value as { id: unknown }).id)
    : null;
}

export function requireRecord(
  { repo, edits }: LedgerStores,
  portalId: string,
  recordId: string,
): StoredRecord {
  const record = edits.record(portalId, recordId);
  if (!record) {
    const moved = repo.remapOf(portalId, 'record', recordId);
    throw new LedgerError(
      moved
        ? `Record ${recordId} has been created on the service as ${moved}; nothing was changed. Open it again and repeat the change.`
        : `Record ${recordId} is not in the local mirror of portal ${portalId}, so it cannot be changed. Nothing was queued; sync the portal and try again.`,
    );
  }
  return record;
}

/**
 * The catalog for a record as the user sees it (its pending status, its layout). `memo` keeps
 * catalogs by module, layout and status for a caller reading many records at once (a bulk edit:
 * reading one from the mirror takes about a millisecond).
 */
export function catalogFor(
  repo: OutboxRepository,
  record: StoredRecord,
  ops: readonly OutboxOp[],
  memo?: Map<string, EditCatalog>,
): EditCatalog {
  const statusId = statusIdOf(overlayOf(ops).get('status')?.value) ?? record.status_id;
  const key = `${record.module_id}\u0000${record.layout_id ?? ''}\u0000${statusId ?? ''}`;
  const kept = memo?.get(key);
  if (kept) return kept;
  const catalog = loadEditCatalog(
    repo,
    record.portal_id,
    record.module_id,
    record.layout_id,
    statusId,
  );
  if (catalog) memo?.set(key, catalog);
  if (!catalog) {
    throw new LedgerError(
      `The fields of module ${record.module_name} are not in the local mirror, so record ${record.id} cannot be changed. Nothing was queued; sync the portal and try again.`,
    );
  }
  return catalog;
}

/** The catalog a new record of the module is made with (its default layout, any status). */
export function newRecordCatalog(
  repo: OutboxRepository,
  portalId: string,
  moduleId: string,
  memo?: Map<string, EditCatalog>,
): EditCatalog {
  // A key catalogFor never makes (its keys start with a module id, never with a NUL).
  const key = `\u0000new\u0000${moduleId}`;
  const kept = memo?.get(key);
  if (kept) return kept;
  const catalog = loadEditCatalog(repo, portalId, moduleId, null, null);
  if (catalog) memo?.set(key, catalog);
  if (!catalog) {
    throw new LedgerError(
      `Module ${moduleId} of portal ${portalId} is not in the local mirror, so nothing can be created in it. Nothing was queued; sync the portal first.`,
    );
  }
  return catalog;
}

export function requireOp(repo: OutboxRepository, id: number): OutboxOp {
  const op = repo.op(id);
  if (!op)
    throw new LedgerError(
      `Operation ${id} is no longer in the outbox (sent or discarded already); nothing was changed.`,
    );
  return op;
}
