/**
 * Which field each column of a file fills, matched by name: a column whose header is a field's
 * label or key, ignoring case and spaces (`Purchase date`, `purchasedate`, `cf_purchase_date`),
 * and `ID` for the record id. A field is taken by one column at most.
 *
 * A header may name more than one column of the module: a custom field labelled "Project" beside
 * the record's own Project (which the export writes too, and no import fills), or fields labelled
 * "Code" and "CODE". Taken in order, the export's Project column filled the custom field with
 * every record's project name, and the custom field's own column was ignored. So a header
 * written exactly as one column's label or key is that column; past that, a header is matched
 * only when it and the field it folds to are each the only one: which of two like-named columns
 * is which is for the user to say (the dialog lists them unmapped). Pure.
 */

export interface TargetField {
  key: string;
  label: string;
}

/** The column a record id is matched by. */
export const ID_TARGET = 'id';

const exact = (text: string) => text.normalize('NFC');
const fold = (text: string) =>
  text
    .normalize('NFC')
    .replace(/[\s_]+/g, '')
    .toLowerCase();

/**
 * `fields`: what a column may fill (the record id besides). `others`: the module's columns no
 * import fills (Owner, Project, Created …), which a file exported from PortalDesk holds too.
 */
export function matchColumns(
  headers: readonly string[],
  fields: readonly TargetField[],
  others: readonly TargetField[] = [],
): (string | null)[] {
  return matchColumnsWithNotes(headers, fields, others).map((m) => m.target);
}

export interface MatchedColumn {
  target: string | null;
  /** Why a header that names a field was not matched to it (the dialog shows it); else null. */
  note: string | null;
}

export function matchColumnsWithNotes(
  headers: readonly string[],
  fields: readonly TargetField[],
  others: readonly TargetField[] = [],
): MatchedColumn[] {
  const targets = [...fields, { key: ID_TARGET, label: 'ID' }];
  const columns = [
    ...targets.map((field) => ({ field, fills: true })),
    ...others.map((field) => ({ field, fills: false })),
  ];
  const named = (header: string, as: (text: string) => string) =>
    columns.filter(({ field }) => as(field.label) === as(header) || as(field.key) === as(header));
  const taken = new Set<string>();
  const targetOf: (string | null)[] = headers.map(() => null);
  const unmatched: number[] = [];
  headers.forEach((header, i) => {
    const exactly = named(header, exact);
    if (exactly.length !== 1) {
      unmatched.push(i);
      return;
    }
    // Written as one column's name: that column, filled or not (the first of two such headers).
    const { field, fills } = exactly[0]!;
    if (fills && !taken.has(field.key)) targetOf[i] = field.key;
    taken.add(field.key);
  });
  const headersByFold = new Map<string, number[]>();
  for (const i of unmatched) {
    const key = fold(headers[i]!);
    headersByFold.set(key, [...(headersByFold.get(key) ?? []), i]);
  }
  for (const [, same] of headersByFold) {
    if (same.length !== 1) continue;
    const i = same[0]!;
    const candidates = named(headers[i]!, fold).filter(
      ({ field, fills }) => fills && !taken.has(field.key),
    );
    if (candidates.length !== 1) continue;
    targetOf[i] = candidates[0]!.field.key;
    taken.add(candidates[0]!.field.key);
  }
  return headers.map((header, i) => {
    const target = targetOf[i]!;
    // Unmatched though it names a field a column may fill: two like-named columns, here or there.
    const names = named(header, fold).some(({ fills }) => fills);
    return {
      target,
      note:
        target === null && names && unmatched.includes(i)
          ? `Not matched: more than one column, in the file or in this module, is named like "${header}". Choose the field this column fills, or ignore it.`
          : null,
    };
  });
}
