/**
 * The writes that follow a change of the log, shared by the ledger's actions: what the lists show
 * of a record's queue (its `record_edits` overlay, the local record of a create not sent yet) and
 * the bases of later updates when an earlier one goes away. Each runs inside the caller's
 * transaction, so the lists never show a change the log does not hold.
 */
import type { LocalRecordValues, StoredRecord } from '../store/mirror/localEditsRepository';
import type { EditCatalog } from './editCatalog';
import { statusIdOf, type LedgerStores } from './ledgerReads';
import type { OpFields, OutboxOp } from './outboxTypes';
import { overlayOf } from './overlayOf';

/** The record's own fields; every other field a create holds is a custom one. */
const OWN_FIELDS = ['name', 'description', 'status', 'is_external'];

/** A create's fields as the columns of its local record. Pure. */
export function localValues(catalog: EditCatalog, fields: OpFields): LocalRecordValues {
  const value = (key: string) => fields[key]?.value ?? null;
  const statusId = statusIdOf(value('status')) ?? catalog.defaultStatusId;
  const custom: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(fields)) {
    if (!catalog.types.has(key) || OWN_FIELDS.includes(key)) continue;
    custom[key] = entry.value;
  }
  return {
    name: String(value('name') ?? ''),
    description: String(value('description') ?? ''),
    statusId,
    isClosed: catalog.statuses.find((s) => s.id === statusId)?.isClosedType === 1,
    isExternal: value('is_external') === true,
    custom,
  };
}

/** The stores' clock as the time stamps of local records and trash marks. */
export const isoNow = (stores: LedgerStores) => new Date(stores.now()).toISOString();

/** The local record a create not sent yet shows in the lists, under its temporary id. */
export function insertLocalRecord(
  stores: LedgerStores,
  portalId: string,
  catalog: EditCatalog,
  recordId: string,
  fields: OpFields,
): void {
  stores.edits.insertLocalRecord(
    portalId,
    catalog.moduleKey,
    recordId,
    catalog.layoutId,
    localValues(catalog, fields),
    isoNow(stores),
  );
}

/** The local record again, after an edit was folded into its create. */
export function updateLocalRecord(
  stores: LedgerStores,
  record: StoredRecord,
  catalog: EditCatalog,
  fields: OpFields,
): void {
  stores.edits.updateLocalRecord(
    record.portal_id,
    record.id,
    localValues(catalog, fields),
    isoNow(stores),
  );
}

/**
 * The local record of a create not sent yet shows the create's value of one custom field again,
 * after the operation's fields were rewritten from outside the ledger (an option renamed: its
 * owner relabels queued values, src/main/configure/queuedRecordOptions.ts). A record already on
 * the service is left alone: its server copy is the pull's and the replay's.
 */
export function refreshLocalField(
  stores: LedgerStores,
  portalId: string,
  recordId: string,
  field: string,
  value: unknown,
): void {
  const record = stores.edits.record(portalId, recordId);
  if (!record || record.local_only !== 1) return;
  const stored = JSON.parse(record.custom) as Record<string, unknown>;
  // Rebuilt from entries: an API name is a user-given key, never a plain object's own key.
  const custom = Object.fromEntries([
    ...Object.entries(stored).filter(([key]) => key !== field),
    [field, value],
  ]) as Record<string, unknown>;
  stores.edits.updateLocalRecord(
    portalId,
    recordId,
    {
      name: record.name,
      description: record.description,
      statusId: record.status_id,
      isClosed: record.is_closed === 1,
      isExternal: record.is_external === 1,
      custom,
    },
    isoNow(stores),
  );
}

/** record_edits of one record, from its queued updates (the lists' view of them). */
export function refreshOverlay({ repo, edits }: LedgerStores, portalId: string, recordId: string) {
  edits.writeOverlay(portalId, recordId, overlayOf(repo.opsOfRecord(portalId, recordId)));
}

/**
 * The next update of the record after `op` that based `field` on `op`'s value now bases it on
 * `to`: `op` was discarded, or its conflict resolved, so the service will not hold its value.
 */
export function rebaseLater({ repo }: LedgerStores, op: OutboxOp, field: string, to: unknown) {
  for (const later of repo.opsOfRecord(op.portalId, op.recordId)) {
    if (later.seq <= op.seq || later.kind !== 'update' || !Object.hasOwn(later.fields, field))
      continue;
    const fields = { ...later.fields, [field]: { value: later.fields[field]?.value, base: to } };
    repo.setFields(later.seq, fields, later.state, later.conflict);
    break;
  }
}

/** Every queued operation of the record dropped, and with them what the lists showed of them. */
export function dropQueue(
  { repo, edits }: LedgerStores,
  portalId: string,
  recordId: string,
  ops: readonly OutboxOp[],
): void {
  for (const other of ops) repo.deleteOp(other.seq);
  edits.writeOverlay(portalId, recordId, new Map());
}
