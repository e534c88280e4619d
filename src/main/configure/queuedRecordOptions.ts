/**
 * A module's queued record changes (creates and updates) against a change of its options or
 * fields queued here. Configuration goes first (src/main/outbox/recordsWaitFor.ts), so a record
 * change still naming an option by the name it had would be refused whole by the service:
 * - a rename relabels the values (and bases) the queued changes hold, as the service relabels
 *   its records; discarding the rename puts them back;
 * - a removal of an option a queued change holds, or the deletion of a field a queued change sets
 *   or clears, is refused in words before anything is queued (`queuedRecordsHolding`): the
 *   service would clear the value or refuse the change, so the user chooses first.
 */
import type { LocalEditsRepository } from '../store/mirror/localEditsRepository';
import { refreshOverlay } from '../outbox/ledgerWrites';
import type { OutboxRepository } from '../outbox/outboxRepository';
import { opStatus, type OpFields, type OutboxOp } from '../outbox/outboxTypes';

/** A pick list's or multi-select's values in queued changes: by API name, one name or a list. */
export interface ChoiceField {
  apiName: string;
  multi: boolean;
}

function relabelValue(value: unknown, relabel: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return relabel.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => relabelValue(item, relabel));
  return value;
}

/**
 * An operation's fields with the field's option names relabelled (value and base: once the
 * rename is delivered, the service holds the new name where it held the old), every pair at once
 * so a swap stays a swap. Null when nothing changes. Pure.
 */
export function relabelFields(
  fields: OpFields,
  field: ChoiceField,
  relabel: ReadonlyMap<string, string>,
): OpFields | null {
  if (!Object.hasOwn(fields, field.apiName)) return null;
  const entry = fields[field.apiName]!;
  const next = {
    value: relabelValue(entry.value, relabel),
    base: relabelValue(entry.base, relabel),
  };
  if (JSON.stringify(next) === JSON.stringify(entry)) return null;
  return { ...fields, [field.apiName]: next };
}

/**
 * Whether the change's own value of the field holds one of `names`; with `null`, whether it sets
 * or clears the field at all (the service refuses either once the field is gone). Pure.
 */
export function holdsValueOf(
  fields: OpFields,
  apiName: string,
  names: ReadonlySet<string> | null,
): boolean {
  if (!Object.hasOwn(fields, apiName)) return false;
  if (names === null) return true;
  const value = fields[apiName]!.value;
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  return items.some((item) => typeof item === 'string' && names.has(item));
}

interface Stores {
  repo: OutboxRepository;
  edits: LocalEditsRepository;
  now: () => number;
}

/**
 * The module's queued record changes holding the field's renamed options follow the rename (or
 * its discard), and the lists' overlay with them; inside the caller's transaction. An operation
 * being sent is left alone: its body is written already. Returns how many changed.
 */
export function relabelQueuedRecords(
  stores: Stores,
  portalId: string,
  moduleId: string,
  field: ChoiceField,
  relabel: ReadonlyMap<string, string>,
): number {
  if (relabel.size === 0) return 0;
  let changed = 0;
  const records = new Set<string>();
  for (const op of stores.repo.valueOpsOfModule(portalId, moduleId)) {
    if (op.state === 'sending') continue;
    const fields = relabelFields(op.fields, field, relabel);
    if (!fields) continue;
    stores.repo.restoreOp(op.seq, fields, opStatus(op));
    if (op.kind === 'update') records.add(op.recordId);
    changed++;
  }
  for (const recordId of records) refreshOverlay(stores, portalId, recordId);
  return changed;
}

/** The module's queued record changes whose own value of the field holds one of `names`. */
export function queuedRecordsHolding(
  repo: OutboxRepository,
  portalId: string,
  moduleId: string,
  apiName: string,
  names: ReadonlySet<string> | null,
): OutboxOp[] {
  return repo
    .valueOpsOfModule(portalId, moduleId)
    .filter((op) => holdsValueOf(op.fields, apiName, names));
}
