/**
 * The records table's columns and the detail panel's fields of one module, from what the mirror
 * stores: the record's fixed fields first, then every custom field. Whether a column sorts and how
 * it filters follow the mirror's own query rules (recordSort, recordFilterSetup), so the table
 * never offers a sort or a condition the local query would refuse. Pure.
 */
import { isCustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import type { RecordsField } from '../../shared/ipc/areas/records';
import type { FilterField } from '@portaldesk/portal-api/filter';
import type { StoredField } from '../store/mirror/metadataRepository';

/**
 * The fixed fields of a record (spec 001, "Custom-module record (entity)"), in the table's default
 * order. `type` names how the renderer shows them; labels are used when the module's field list
 * has no label of its own for them.
 */
export const SYSTEM_COLUMNS: readonly { key: string; label: string; type: string }[] = [
  { key: 'name', label: 'Name', type: 'name' },
  { key: 'status', label: 'Status', type: 'status' },
  { key: 'owner', label: 'Owner', type: 'owner' },
  { key: 'project', label: 'Project', type: 'project' },
  { key: 'last_updated_time', label: 'Last updated', type: 'timestamp' },
  { key: 'created_time', label: 'Created', type: 'timestamp' },
  { key: 'description', label: 'Description', type: 'multi_line' },
  { key: 'is_closed', label: 'Closed', type: 'check_box' },
  { key: 'is_external', label: 'External', type: 'check_box' },
  { key: 'id', label: 'ID', type: 'id' },
];

/** Fields holding several values cannot be sorted by (recordSort: as the API). */
const UNSORTABLE_TYPES = new Set(['multi_select', 'multi_user']);

/**
 * `options`: each pick list's and multi-select's options by API name, as queued option changes
 * leave them (MetadataRepository.optionsAsQueued), offered as the filter's choices.
 */
export function moduleColumns(
  fields: readonly StoredField[],
  options: ReadonlyMap<string, readonly { id: string; name: string }[]>,
  filterFields: readonly FilterField[],
): RecordsField[] {
  const kinds = new Map(filterFields.map((f) => [f.name, f.kind]));
  const systemLabels = new Map(
    fields.filter((f) => f.isDefault === 1).map((f) => [f.apiName, f.displayName]),
  );

  const columns: RecordsField[] = SYSTEM_COLUMNS.map((column) => ({
    key: column.key,
    label: systemLabels.get(column.key) ?? column.label,
    type: column.type,
    system: true,
    sortable: true,
    filterKind: kinds.get(column.key) ?? null,
    options: [],
  }));
  const taken = new Set(columns.map((c) => c.key));
  for (const field of fields) {
    if (field.isDefault === 1 || !isCustomFieldType(field.fieldType)) continue;
    if (taken.has(field.apiName)) continue;
    taken.add(field.apiName);
    const filterKind = kinds.get(field.apiName) ?? null;
    columns.push({
      key: field.apiName,
      label: field.displayName,
      type: field.fieldType,
      system: false,
      // A field the local query cannot address (an api_name unsafe in SQL) is neither.
      sortable: filterKind !== null && !UNSORTABLE_TYPES.has(field.fieldType),
      filterKind,
      options:
        field.fieldType === 'pick_list' || field.fieldType === 'multi_select'
          ? (options.get(field.apiName) ?? []).map((o) => ({ id: o.id, name: o.name }))
          : [],
    });
  }
  return columns;
}
