/**
 * The checks of a change before anything is queued: every value against its field's rules, and a
 * new record's required fields. One bad value refuses the whole change, with every problem named
 * in one LedgerError, so the user corrects them all at once. Pure.
 */
import { validateFieldValue } from '../../shared/fieldValues/validateFieldValue';
import type { EditCatalog } from './editCatalog';
import { LedgerError } from './ledgerError';
import type { OpFields } from './outboxTypes';
import type { FieldChange } from './planEdit';

/**
 * The changes, validated, in the API's shapes. `current` gives what a record's fields hold now,
 * so parts of a value a change does not name are kept (issue 14).
 */
export function validateChanges(
  catalog: EditCatalog,
  changes: Record<string, unknown>,
  current?: (key: string) => unknown,
): FieldChange[] {
  const problems: string[] = [];
  const valid: FieldChange[] = [];
  for (const [key, input] of Object.entries(changes)) {
    const field = catalog.fields.find((f) => f.key === key);
    if (!field) {
      problems.push(`${key}: not a field PortalDesk can edit on this record's layout`);
      continue;
    }
    const check = validateFieldValue(field, input, {
      timeZone: catalog.timeZone,
      ...(current ? { current: current(key) } : {}),
    });
    if (check.ok) valid.push({ field: key, type: field.type, value: check.value });
    // Rules are sentences; the message joins them with semicolons and ends with its own stop.
    else problems.push(`${field.label}: ${check.rule.replace(/\.$/, '')}`);
  }
  if (problems.length > 0) {
    throw new LedgerError(
      `Nothing was queued: ${problems.join('; ')}. Correct ${problems.length === 1 ? 'the value' : 'the values'} and save again.`,
    );
  }
  return valid;
}

/**
 * A new record's fields from its validated values: refused while a required field is empty (a
 * check box is never empty: unticked is a value); empty values are left out of the create.
 */
export function createFields(catalog: EditCatalog, valid: readonly FieldChange[]): OpFields {
  const given = new Map(valid.map((change) => [change.field, change.value]));
  const missing = catalog.fields
    .filter((f) => f.mandatory && f.type !== 'check_box' && (given.get(f.key) ?? null) === null)
    .map((f) => f.label);
  if (missing.length > 0) {
    throw new LedgerError(
      `Nothing was created: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required. Fill ${missing.length === 1 ? 'it' : 'them'} in and save again.`,
    );
  }
  const fields: OpFields = {};
  for (const change of valid)
    if (change.value !== null) fields[change.field] = { value: change.value, base: null };
  return fields;
}
