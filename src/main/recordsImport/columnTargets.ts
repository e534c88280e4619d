/**
 * Which field each column of a file fills, matched by name: a column whose header is a field's
 * label or key, ignoring case and spaces (`Purchase date`, `purchasedate`, `cf_purchase_date`),
 * and `ID` for the record id. A field is taken by one column at most (the first). Pure.
 */

export interface TargetField {
  key: string;
  label: string;
}

/** The column a record id is matched by. */
export const ID_TARGET = 'id';

const fold = (text: string) =>
  text
    .normalize('NFC')
    .replace(/[\s_]+/g, '')
    .toLowerCase();

export function matchColumns(
  headers: readonly string[],
  fields: readonly TargetField[],
): (string | null)[] {
  const byName = new Map<string, string>();
  for (const field of fields) {
    for (const name of [field.label, field.key]) {
      if (!byName.has(fold(name))) byName.set(fold(name), field.key);
    }
  }
  if (!byName.has(fold(ID_TARGET))) byName.set(fold(ID_TARGET), ID_TARGET);
  const taken = new Set<string>();
  return headers.map((header) => {
    const key = byName.get(fold(header));
    if (key === undefined || taken.has(key)) return null;
    taken.add(key);
    return key;
  });
}
