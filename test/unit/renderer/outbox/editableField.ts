/** An editable field for editor tests: the contract's shape with neutral defaults. */
import type { EditableField } from '../../../../src/shared/ipc/areas/outbox';

/** One editable field of `type`, keyed `cf_<type>` unless `extra` says otherwise. */
export function editableField(type: string, extra: Partial<EditableField> = {}): EditableField {
  return {
    key: `cf_${type}`,
    label: `Field ${type}`,
    type,
    mandatory: false,
    options: [],
    users: [],
    usersRestricted: false,
    statuses: [],
    currencyCode: 'USD',
    precision: 2,
    ...extra,
  };
}
