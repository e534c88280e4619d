/**
 * What the record editor shows (EditForm): each field's value as the user last left it (the
 * newest queued value, else the server copy's) and, for each field with a change queued, when it
 * was queued, on which base and in what state. Pure: the record, its catalog and its queue in.
 */
import type { EditForm, PendingValue } from '../../shared/ipc/areas/outbox';
import type { StoredRecord } from '../store/mirror/localEditsRepository';
import { statusValueNamed } from './catalogOverlay';
import { storedValue, type EditCatalog } from './editCatalog';
import type { OutboxOp } from './outboxTypes';
import { overlayOf } from './overlayOf';

/** A field's value as the editor shows it: the newest queued value, else the server copy's. */
export function shownValues(record: StoredRecord, catalog: EditCatalog, ops: readonly OutboxOp[]) {
  const overlay = overlayOf(ops);
  return (key: string): unknown => {
    const shown = overlay.get(key);
    if (!shown) return storedValue(record, catalog, key);
    // A queued status keeps the name it had when chosen; the service knows it by its id.
    return key === 'status' ? statusValueNamed(shown.value, catalog.statuses) : shown.value;
  };
}

/** The form of a record not made yet: empty but for the module's default status. */
export function newRecordForm(portalId: string, moduleId: string, catalog: EditCatalog): EditForm {
  const values: Record<string, unknown> = {};
  if (catalog.defaultStatusId !== null) {
    const status = catalog.statuses.find((s) => s.id === catalog.defaultStatusId);
    if (status)
      values.status = {
        id: status.id,
        name: status.name,
        color: status.color,
        is_closed_type: status.isClosedType === 1,
      };
  }
  return {
    portalId,
    moduleId,
    recordId: null,
    timeZone: catalog.timeZone,
    fields: catalog.fields,
    values,
    pending: {},
  };
}

export function recordForm(
  record: StoredRecord,
  catalog: EditCatalog,
  ops: readonly OutboxOp[],
): EditForm {
  const overlay = overlayOf(ops);
  const values: Record<string, unknown> = {};
  const pending: Record<string, PendingValue> = {};
  const stateOf = (field: string) =>
    [...ops].reverse().find((op) => op.kind === 'update' && Object.hasOwn(op.fields, field))
      ?.state ?? 'pending';
  const create = ops.find((op) => op.kind === 'create');
  const valueOf = shownValues(record, catalog, ops);
  for (const field of catalog.fields) {
    const shown = overlay.get(field.key);
    values[field.key] = valueOf(field.key);
    if (shown)
      pending[field.key] = {
        queuedAt: shown.editedAt,
        base: field.key === 'status' ? statusValueNamed(shown.base, catalog.statuses) : shown.base,
        state: stateOf(field.key),
      };
    else if (create && Object.hasOwn(create.fields, field.key)) {
      pending[field.key] = { queuedAt: create.updatedAt, base: null, state: create.state };
    }
  }
  return {
    portalId: record.portal_id,
    moduleId: record.module_id,
    recordId: record.id,
    timeZone: catalog.timeZone,
    fields: catalog.fields,
    values,
    pending,
  };
}
