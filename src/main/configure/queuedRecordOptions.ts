/**
 * A module's queued record changes (creates and updates) against a change of its options or
 * fields queued here. Configuration goes first (src/main/outbox/recordsWaitFor.ts), so a record
 * change still naming an option by the name it had would be refused whole by the service:
 * - a rename relabels the values (and bases) the queued changes hold, as the service relabels
 *   its records, and the local copies of records created here with them; discarding the rename
 *   puts them back;
 * - a removal of an option a queued change holds, or the deletion of a field a queued change sets
 *   or clears, is refused in words before anything is queued (`queuedRecordsHolding`): the
 *   service would clear the value or refuse the change, so the user chooses first.
 */
import type { LocalEditsRepository } from '../store/mirror/localEditsRepository';
import { refreshLocalField, refreshOverlay } from '../outbox/ledgerWrites';
import type { OutboxRepository } from '../outbox/outboxRepository';
import { opStatus, type OpFields, type OutboxOp } from '../outbox/outboxTypes';
import { relabelEntry } from '../outbox/relabelOptions';
import { configQueueOf } from '../outbox/catalogOverlay';
import { param } from './layoutOps';
import { optionActionOf, optionsOf } from './optionOps';

/** A pick list's or multi-select's values in queued changes: by API name, one name or a list. */
export interface ChoiceField {
  apiName: string;
  multi: boolean;
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
  const next = relabelEntry(entry, relabel);
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
 * being sent is left alone: its body is written already. What keeps copies of queued values in
 * its own tables (a bulk edit's undo, src/main/bulkEdit/) is told (`optionsRelabelled`) and
 * follows too. Returns how many operations changed.
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
    // A record made here shows its create's values: the lists show what the replay will make.
    else
      refreshLocalField(stores, portalId, op.recordId, field.apiName, fields[field.apiName]!.value);
    changed++;
  }
  for (const recordId of records) refreshOverlay(stores, portalId, recordId);
  stores.repo.optionsRelabelled?.({ portalId, moduleId, field: field.apiName, relabel });
  return changed;
}

/**
 * The record changes a rename or removal left alone because they were being sent when it was
 * queued (their bodies had left with the old names and bases): kept in it (`in_flight`) by the
 * field's API name and the operations' seqs, so each follows it once it settles undelivered.
 */
export interface InFlightRecords {
  field: string;
  seqs: number[];
}

/** The module's record changes being sent that set the field (`ops`: valueOpsOfModule). Pure. */
export function inFlightSetting(ops: readonly OutboxOp[], apiName: string): number[] {
  return ops
    .filter((op) => op.state === 'sending' && Object.hasOwn(op.fields, apiName))
    .map((op) => op.seq);
}

/** A queued rename as the mapping its record changes follow: old name → new. Pure. */
export function renameRelabel(rename: OutboxOp): Map<string, string> {
  const was = param<Record<string, string>>(rename, 'was') ?? {};
  const relabel = new Map<string, string>();
  for (const option of optionsOf(rename)) {
    const before = was[option.id];
    if (before !== undefined && before !== option.name) relabel.set(before, option.name);
  }
  return relabel;
}

/**
 * Record changes that were in flight when an option rename or removal was queued, and have
 * settled since without being delivered (no answer, an answer lost, refused, in conflict), follow
 * the changes they missed, in queue order: they go again after them, and the service would refuse
 * (or take for someone else's change) the old names, and take a base still naming a removed
 * option for someone else's clearing of it. Delivered ones are gone: the service relabels or
 * clears what they wrote with the change. Inside the caller's transaction; returns how many
 * changes followed.
 */
export function followSettledRecords(stores: Stores, portalId: string, moduleId: string): number {
  let followed = 0;
  for (const change of stores.repo.opsOfRecord(portalId, configQueueOf(moduleId))) {
    const action = optionActionOf(change);
    if (action !== 'renameOptions' && action !== 'removeOptions') continue;
    const inFlight = param<InFlightRecords>(change, 'in_flight');
    if (!inFlight || inFlight.seqs.length === 0) continue;
    const relabel = action === 'renameOptions' ? renameRelabel(change) : null;
    const removed = new Set(optionsOf(change).map((option) => option.name));
    const cleared = param<ClearedBase[]>(change, 'cleared_bases') ?? [];
    const still: number[] = [];
    for (const seq of inFlight.seqs) {
      const op = stores.repo.op(seq);
      if (!op) continue;
      if (op.state === 'sending') {
        still.push(seq);
        continue;
      }
      if (!Object.hasOwn(op.fields, inFlight.field)) continue;
      const entry = op.fields[inFlight.field]!;
      let fields: OpFields | null;
      if (relabel) {
        fields = relabelFields(op.fields, { apiName: inFlight.field, multi: false }, relabel);
      } else {
        const base = baseWithout(entry.base, removed);
        fields =
          JSON.stringify(base) === JSON.stringify(entry.base)
            ? null
            : { ...op.fields, [inFlight.field]: { value: entry.value, base } };
        // Kept in the removal, so a discard of it puts the base back as for those queued.
        if (fields) cleared.push({ seq, base: entry.base });
      }
      if (!fields) continue;
      stores.repo.restoreOp(seq, fields, opStatus(op));
      if (op.kind === 'update') refreshOverlay(stores, portalId, op.recordId);
      else
        refreshLocalField(
          stores,
          portalId,
          op.recordId,
          inFlight.field,
          fields[inFlight.field]!.value,
        );
      followed++;
    }
    if (still.length === inFlight.seqs.length) continue;
    const next: InFlightRecords = { field: inFlight.field, seqs: still };
    stores.repo.restoreOp(
      change.seq,
      {
        ...change.fields,
        in_flight: { value: next, base: null },
        ...(cleared.length > 0 ? { cleared_bases: { value: cleared, base: null } } : {}),
      },
      opStatus(change),
    );
  }
  return followed;
}

/** A base as it was before an option's removal cleared it, to put back if the removal goes. */
export interface ClearedBase {
  seq: number;
  base: unknown;
}

/**
 * A base as the service leaves it once the options named are removed: a multi-select's list
 * without them, a pick list's one name cleared (null). Pure.
 */
export function baseWithout(base: unknown, names: ReadonlySet<string>): unknown {
  if (Array.isArray(base)) {
    return (base as unknown[]).filter((item) => typeof item !== 'string' || !names.has(item));
  }
  return typeof base === 'string' && names.has(base) ? null : base;
}

/**
 * An option removal queued: the service will clear the option from its records, so the bases of
 * the module's queued record changes holding it are cleared too (their values cannot: such a
 * removal is refused first), or each would meet the cleared value as a conflict. Changes being
 * sent are left alone (their bodies have left); they follow once they settle undelivered
 * (`inFlightSetting`, `followSettledRecords`). Inside the caller's transaction; returns the bases
 * as they were, for a discard of the removal.
 */
export function clearRemovedBases(
  stores: Stores,
  portalId: string,
  moduleId: string,
  field: ChoiceField,
  names: ReadonlySet<string>,
): ClearedBase[] {
  const cleared: ClearedBase[] = [];
  for (const op of stores.repo.valueOpsOfModule(portalId, moduleId)) {
    if (op.state === 'sending' || !Object.hasOwn(op.fields, field.apiName)) continue;
    const entry = op.fields[field.apiName]!;
    const base = baseWithout(entry.base, names);
    if (JSON.stringify(base) === JSON.stringify(entry.base)) continue;
    cleared.push({ seq: op.seq, base: entry.base });
    stores.repo.restoreOp(
      op.seq,
      { ...op.fields, [field.apiName]: { value: entry.value, base } },
      opStatus(op),
    );
    // The lists' overlay keeps a field's base (what the record held before): it follows.
    if (op.kind === 'update') refreshOverlay(stores, portalId, op.recordId);
  }
  return cleared;
}

/** A discarded removal's cleared bases put back (those of changes still queued, not being sent). */
export function restoreClearedBases(
  stores: Stores,
  apiName: string,
  cleared: readonly ClearedBase[],
): void {
  for (const { seq, base } of cleared) {
    const op = stores.repo.op(seq);
    if (!op || op.state === 'sending' || !Object.hasOwn(op.fields, apiName)) continue;
    const entry = op.fields[apiName]!;
    stores.repo.restoreOp(
      seq,
      { ...op.fields, [apiName]: { value: entry.value, base } },
      opStatus(op),
    );
    if (op.kind === 'update') refreshOverlay(stores, op.portalId, op.recordId);
  }
}

/**
 * A removal discarded: the record changes queued after it were based on the records as the
 * service would hold them once it went (the editor clears a removed option), and the service
 * keeps the option now. A record's first queued change of the field is based on the service's
 * copy (a later one on the value queued before it): while its base is still that copy as the
 * removal left it (`serviceHolds(record, true)`), it gets the copy as the queue now leaves it
 * (`serviceHolds(record, false)`), or it meets the option as someone else's change, a conflict.
 * `ops`: the module's value operations in queue order (valueOpsOfModule). Pure.
 */
export function basesBackAfterRemoval(
  ops: readonly OutboxOp[],
  removalSeq: number,
  apiName: string,
  serviceHolds: (recordId: string, withRemoval: boolean) => unknown,
): { op: OutboxOp; fields: OpFields }[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const based = new Set<string>();
  const rebased: { op: OutboxOp; fields: OpFields }[] = [];
  for (const op of ops) {
    if (op.kind !== 'update' || !Object.hasOwn(op.fields, apiName)) continue;
    const first = !based.has(op.recordId);
    based.add(op.recordId);
    // One being sent keeps what left with it; one queued before the removal got its base back
    // from the removal's own list (restoreClearedBases).
    if (!first || op.seq < removalSeq || op.state === 'sending') continue;
    const entry = op.fields[apiName]!;
    if (!same(entry.base, serviceHolds(op.recordId, true))) continue;
    const base = serviceHolds(op.recordId, false);
    if (same(base, entry.base)) continue;
    rebased.push({ op, fields: { ...op.fields, [apiName]: { value: entry.value, base } } });
  }
  return rebased;
}

/**
 * A record change's fields as they will reach the service: one that was in flight when renames
 * were queued (its seq in their `in_flight`) holds the names they give, in queue order, whether it
 * comes back undelivered and follows them (`followSettledRecords`) or was delivered and the
 * service relabels what it wrote. Any other change follows a rename when it is queued, so its
 * fields are already so. Pure.
 */
export function fieldsAfterRenames(op: OutboxOp, changes: readonly OutboxOp[]): OpFields {
  let fields = op.fields;
  for (const change of changes) {
    if (optionActionOf(change) !== 'renameOptions') continue;
    const inFlight = param<InFlightRecords>(change, 'in_flight');
    if (!inFlight?.seqs.includes(op.seq)) continue;
    const field = { apiName: inFlight.field, multi: false };
    fields = relabelFields(fields, field, renameRelabel(change)) ?? fields;
  }
  return fields;
}

/**
 * The module's queued record changes whose own value of the field holds one of `names`, with
 * their fields as they will reach the service (`fieldsAfterRenames`): a change in flight still
 * names an option by the name it had before the renames queued since, and the name it held may
 * have gone to another option meanwhile.
 */
export function queuedRecordsHolding(
  repo: OutboxRepository,
  portalId: string,
  moduleId: string,
  apiName: string,
  names: ReadonlySet<string> | null,
): OutboxOp[] {
  const changes = repo.opsOfRecord(portalId, configQueueOf(moduleId));
  return repo
    .valueOpsOfModule(portalId, moduleId)
    .map((op) => ({ ...op, fields: fieldsAfterRenames(op, changes) }))
    .filter((op) => holdsValueOf(op.fields, apiName, names));
}
