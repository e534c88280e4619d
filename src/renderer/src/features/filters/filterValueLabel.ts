import type { ValueLabel } from '@portaldesk/portal-api/filter';
import type { RecordsColumns } from '../../../../shared/ipc/areas/records';
import { choicesFor } from './ValueInput';

/**
 * Statuses, people and options by name in a filter said in words, as the pickers show them: the
 * builder's summary and the applied filter's line read the same names, never raw ids.
 */
export function filterValueLabel(columns: RecordsColumns): ValueLabel {
  const fieldByKey = new Map(columns.fields.map((f) => [f.key, f]));
  return (field, value) =>
    choicesFor(field.kind, fieldByKey.get(field.name), columns.statuses, columns.users)?.find(
      (choice) => choice.value === value,
    )?.label;
}
