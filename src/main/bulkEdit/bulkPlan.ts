/**
 * What a bulk edit does to each selected record (issue 20, "Bulk edit"). Pure: per record, the
 * value it shows now (pending edits included) and its catalog in, the value to queue out, with the
 * record editor's own rules (validateChanges, the shared validateFieldValue): a record whose value
 * would not change is skipped and counted, a record the rules refuse is named with the reason.
 *
 * - `set`: the same input for every record (parts of a compound value it does not name are kept
 *   per record, as the editor keeps them);
 * - `clear`: null (refused by the rules for required fields);
 * - `add` / `remove`: options of a multi-select added to or taken from what each record holds.
 */
import { sameFieldValue } from '../../shared/fieldValues/sameFieldValue';
import type { EditCatalog } from '../outbox/editCatalog';
import { LedgerError } from '../outbox/ledgerError';
import { validateChanges } from '../outbox/validateChanges';

export type BulkAction = 'set' | 'clear' | 'add' | 'remove';

export interface BulkChangeSpec {
  field: string;
  action: BulkAction;
  /** `set`: the input as the editor gives it; `add`/`remove`: option names; `clear`: unused. */
  value?: unknown;
}

/** One selected record as the plan reads it. */
export interface BulkRecordInput {
  recordId: string;
  name: string;
  /** The catalog the record is edited with (its layout, its status's transitions). */
  catalog: EditCatalog;
  /** What the record's fields hold now, pending edits included, in the API's shapes. */
  current(field: string): unknown;
  /** Set when the record cannot be edited at all (in the trash): the reason. */
  refused?: string;
}

export interface BulkRecordChange {
  recordId: string;
  name: string;
  type: string;
  before: unknown;
  /** Validated, in the API's shape. */
  after: unknown;
}

export interface BulkFailure {
  recordId: string;
  name: string;
  reason: string;
}

export interface BulkPlan {
  changes: BulkRecordChange[];
  /** Records whose value would not change. */
  unchanged: number;
  failures: BulkFailure[];
}

/** Option names of a multi-select value (the API shows a list of names). */
function optionNames(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The input the editor would have given for this record. */
export function bulkInput(spec: BulkChangeSpec, current: unknown): unknown {
  switch (spec.action) {
    case 'clear':
      return null;
    case 'set':
      return spec.value;
    case 'add': {
      const held = optionNames(current);
      return [...held, ...optionNames(spec.value).filter((o) => !held.includes(o))];
    }
    case 'remove': {
      const gone = new Set(optionNames(spec.value));
      return optionNames(current).filter((o) => !gone.has(o));
    }
  }
}

/** The reason in a LedgerError of validateChanges, without its "Nothing was queued" framing. */
function reasonOf(error: LedgerError): string {
  return error.message
    .replace(/^Nothing was queued: /, '')
    .replace(/\. Correct the values? and save again\.$/, '');
}

export function planBulkEdit(records: Iterable<BulkRecordInput>, spec: BulkChangeSpec): BulkPlan {
  const plan: BulkPlan = { changes: [], unchanged: 0, failures: [] };
  for (const record of records) {
    const { recordId, name } = record;
    if (record.refused !== undefined) {
      plan.failures.push({ recordId, name, reason: record.refused });
      continue;
    }
    const field = record.catalog.fields.find((f) => f.key === spec.field);
    if (!field) {
      plan.failures.push({
        recordId,
        name,
        reason: `this record's layout has no field ${spec.field} PortalDesk can edit`,
      });
      continue;
    }
    if ((spec.action === 'add' || spec.action === 'remove') && field.type !== 'multi_select') {
      plan.failures.push({
        recordId,
        name,
        reason: `${field.label} is not a multi-select, so options cannot be added or removed`,
      });
      continue;
    }
    const before = record.current(spec.field);
    let after: unknown;
    try {
      const [valid] = validateChanges(
        record.catalog,
        { [spec.field]: bulkInput(spec, before) },
        (key) => record.current(key),
      );
      after = valid?.value ?? null;
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      plan.failures.push({ recordId, name, reason: reasonOf(error) });
      continue;
    }
    if (sameFieldValue(field.type, after, before ?? null)) plan.unchanged += 1;
    else plan.changes.push({ recordId, name, type: field.type, before: before ?? null, after });
  }
  return plan;
}
