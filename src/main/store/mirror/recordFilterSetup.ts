/**
 * Which fields a module's mirrored records can be filtered by, their kinds, and the SQL each one
 * reads from a record row aliased `r` (the `records` table, or the edited rows laid over it, which
 * have the same columns). The same fields as the API (packages/emulator/README.md, "Filter fields of
 * records"), read from the API's shapes as the mirror stores them. Pure.
 */
import {
  CUSTOM_FIELD_FILTER_KIND,
  SAFE_API_NAME,
} from '@portaldesk/portal-api/domain/customFieldFilterKinds';
import {
  isCustomFieldType,
  type CustomFieldType,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import type { FilterField, SqlBinding } from '@portaldesk/portal-api/filter';
import { dictionary } from '@portaldesk/portal-api/json/dictionary';

/** A value as an SQL string literal (for ids from our own tables, never a user's filter value). */
export function sqlText(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export interface SetupField {
  apiName: string;
  fieldType: string;
  displayName: string;
  isDefault: boolean | number;
}

export interface SetupStatus {
  id: string;
  isClosedType: boolean | number;
}

export interface SetupOption {
  fieldApiName: string;
  valueId: string;
  value: string | null;
}

export interface RecordFilterSetup {
  fields: FilterField[];
  bindings: Record<string, SqlBinding>;
  /**
   * Text fields with a folded copy in a column: their text conditions compare that column
   * instead of calling the fold function on every row (0.7 µs a row, 0.7 s for a million).
   */
  folded: Record<string, string>;
  /**
   * Of those, the ones with a column holding naturalSortKeyOfFolded of the folded one (the
   * name's `name_sort`): an `equals` condition also compares it, since its index
   * (`records_by_name_sort`) is the only one over names (migration 0029 dropped
   * `records_by_name`).
   */
  foldedSortKeys: Record<string, string>;
  /**
   * Multi-selects: stored as option names (the API's shape), filtered by option id (the filter
   * language's), so each field maps option id -> name.
   */
  optionNames: Record<string, ReadonlyMap<string, string>>;
  /** Multi-user fields: stored as [{zpuid, name}], filtered by zpuid. */
  userLists: Record<string, true>;
}

/** The option names of a multi-select's option ids; an id that is no option names nothing. */
export function optionNamesOf(
  ids: readonly string[],
  names: ReadonlyMap<string, string>,
): string[] {
  return [...new Set(ids.flatMap((id) => names.get(id) ?? []))];
}

/** SQL of a custom field's value as the filter language compares it. */
export function customExpr(apiName: string, type: CustomFieldType): string {
  switch (type) {
    case 'currency':
      return `json_extract(r.custom, '$.${apiName}.amount')`;
    case 'user_pick_list':
      return `json_extract(r.custom, '$.${apiName}.zpuid')`;
    default:
      return `json_extract(r.custom, '$.${apiName}')`;
  }
}

/** 1 when the record's status is of a closed type, from the module's statuses. */
export function closedExpr(statuses: readonly SetupStatus[]): string {
  // Without mirrored statuses, the record's own flag as the server last showed it.
  if (statuses.length === 0) return 'r.is_closed';
  const closed = statuses.filter((s) => s.isClosedType === true || s.isClosedType === 1);
  return closed.length === 0
    ? '0'
    : `(r.status_id IN (${closed.map((s) => sqlText(s.id)).join(', ')}))`;
}

export function recordFilterSetup(
  fields: readonly SetupField[],
  statuses: readonly SetupStatus[],
  options: readonly SetupOption[],
): RecordFilterSetup {
  const closed = closedExpr(statuses);
  const setup: RecordFilterSetup = {
    fields: [
      { name: 'name', kind: 'text', label: 'Name' },
      { name: 'description', kind: 'text', label: 'Description' },
      { name: 'status', kind: 'status', label: 'Status' },
      { name: 'owner', kind: 'user', label: 'Owner' },
      { name: 'created_time', kind: 'datetime', label: 'Created' },
      { name: 'last_updated_time', kind: 'datetime', label: 'Last updated' },
      { name: 'is_closed', kind: 'boolean', label: 'Closed' },
      { name: 'is_external', kind: 'boolean', label: 'External' },
    ],
    // Dictionaries: custom fields are looked up by API name, and `constructor` may be one.
    bindings: dictionary({
      name: { expr: 'r.name' },
      description: { expr: 'r.description' },
      status: { expr: 'r.status_id', closedExpr: closed },
      owner: { expr: 'r.owner_zpuid' },
      // Ranges of these compare numbers, which records_by_created and records_by_updated hold
      // (migration 0022): canonical instants (recordRepository.ts) order as their text does.
      created_time: { expr: 'r.created_time', indexedAsInstant: true },
      last_updated_time: { expr: 'r.last_updated_time', indexedAsInstant: true },
      // A status with no closed flag known (NULL status) falls back to the record's own flag.
      is_closed: { expr: closed === 'r.is_closed' ? closed : `coalesce(${closed}, r.is_closed)` },
      is_external: { expr: 'r.is_external' },
    }),
    folded: dictionary({ name: 'r.name_fold' }),
    foldedSortKeys: dictionary({ name: 'r.name_sort' }),
    optionNames: dictionary(),
    userLists: dictionary(),
  };
  for (const field of fields) {
    const type = field.fieldType;
    if (field.isDefault === true || field.isDefault === 1) continue;
    if (!isCustomFieldType(type) || !SAFE_API_NAME.test(field.apiName)) continue;
    if (Object.hasOwn(setup.bindings, field.apiName)) continue;
    setup.fields.push({
      name: field.apiName,
      kind: CUSTOM_FIELD_FILTER_KIND[type],
      label: field.displayName,
    });
    setup.bindings[field.apiName] = { expr: customExpr(field.apiName, type) };
    if (type === 'multi_select') {
      const names = new Map<string, string>();
      for (const option of options) {
        if (option.fieldApiName === field.apiName && option.value !== null) {
          names.set(option.valueId, option.value);
        }
      }
      setup.optionNames[field.apiName] = names;
    }
    if (type === 'multi_user') setup.userLists[field.apiName] = true;
  }
  return setup;
}
