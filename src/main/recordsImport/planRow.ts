/**
 * One row of a file as the changes it asks of a record (update) or the values of a new one
 * (create): each mapped cell read by parseCell against the field as the record's own form has it
 * (its layout, the statuses its status may move to, its values now), and every problem named with
 * its column. A row with any problem queues nothing. Pure.
 */
import type { EditableField } from '../../shared/ipc/areas/outbox';
import type { ImportFailure } from '../../shared/ipc/areas/recordsImport';
import { parseCell, type CellReading, type ImportCell } from '../../shared/recordValues/parseCell';
import { ID_TARGET } from './columnTargets';

export interface PlannedColumn {
  header: string;
  /** A field's key, `id`, or null (ignored). */
  target: string | null;
}

export interface RowPlan {
  /** Field key → the value in the API's shape (null empties it); only fields that change. */
  changes: Record<string, unknown>;
  problems: Omit<ImportFailure, 'row'>[];
}

export interface RowForm {
  fields: readonly EditableField[];
  /** The record's values now (update); absent for a new record. */
  values?: Record<string, unknown>;
}

/** Rules are sentences; a reason is one, with the rule's first letter as it is. */
const reasonOf = (rule: string) => rule;

export function planRow(
  cells: readonly ImportCell[],
  columns: readonly PlannedColumn[],
  form: RowForm,
  reading: CellReading,
): RowPlan {
  const changes: Record<string, unknown> = {};
  const problems: RowPlan['problems'] = [];
  const byKey = new Map(form.fields.map((field) => [field.key, field]));
  columns.forEach((column, i) => {
    if (column.target === null || column.target === ID_TARGET) return;
    const field = byKey.get(column.target);
    const cell = cells[i] ?? null;
    if (!field) {
      // The export shows a field off the record's layout as an empty cell: nothing to change.
      if (cell === null || cell === '') return;
      problems.push({
        column: column.header,
        reason: `this record's layout has no field "${column.target}" PortalDesk can edit.`,
      });
      return;
    }
    const current = form.values === undefined ? undefined : (form.values[field.key] ?? null);
    const parsed = parseCell(field, cell, reading, current);
    if (parsed.kind === 'fail')
      problems.push({ column: column.header, reason: reasonOf(parsed.rule) });
    else if (parsed.kind === 'value' && !(form.values === undefined && parsed.value === null)) {
      changes[field.key] = parsed.value;
    }
  });
  if (form.values === undefined) {
    // A new record: every required field must be given (a check box is never empty).
    for (const field of form.fields) {
      const required = field.mandatory || field.type === 'name';
      if (
        required &&
        field.type !== 'check_box' &&
        field.type !== 'status' &&
        !(field.key in changes)
      ) {
        if (
          problems.some(
            (p) =>
              p.column !== null && columns.find((c) => c.header === p.column)?.target === field.key,
          )
        )
          continue;
        problems.push({
          column: null,
          reason: `${field.label} is required: map a column to it and fill it in.`,
        });
      }
    }
  }
  return { changes, problems };
}
