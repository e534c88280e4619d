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

/** Per field API name: a name records hold → the name a queued option change gives it (null: removed). */
export type OptionRelabel = ReadonlyMap<string, ReadonlyMap<string, string | null>>;

export interface RecordFilterSetup {
  fields: FilterField[];
  /** Each field's value as the lists show it, in the rows with pending edits (laid over already). */
  bindings: Record<string, SqlBinding>;
  /**
   * The same over the listed server copies: a pick list whose options a queued change renames
   * or removes reads its value as that change leaves it (queuedPickListExpr), as the lists show
   * it. Otherwise `bindings`' own.
   */
  storedBindings: Record<string, SqlBinding>;
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
  /**
   * The same for the rows with pending edits, whose values are shown (and filtered) as queued
   * option changes leave them: option id -> its queued name. Removed options are in neither.
   */
  shownOptionNames: Record<string, ReadonlyMap<string, string>>;
  /** Multi-selects: the names their server copies hold that a queued removal clears. */
  clearedNames: Record<string, readonly string[]>;
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

/**
 * A text as an SQL string literal; one holding NUL as its UTF-8 bytes (SQLite reads a literal as
 * C text up to a NUL). For names from our own tables and queue, never a user's filter value.
 */
function sqlTextLiteral(value: string): string {
  if (!value.includes('\u0000')) return sqlText(value);
  return `CAST(X'${Buffer.from(value, 'utf8').toString('hex')}' AS TEXT)`;
}

/**
 * A pick list's value over a listed server copy as queued option changes leave it (`names`:
 * what it holds → what it will, null when cleared): the service relabels its records when the
 * change is delivered, and lists show and filter the value so until then. A record made here
 * holds the queued names already (its create was relabelled: configure/queuedRecordOptions.ts).
 */
export function queuedPickListExpr(
  expr: string,
  names: ReadonlyMap<string, string | null>,
): string {
  const cases = [...names]
    .map(
      ([from, to]) =>
        `WHEN ${sqlTextLiteral(from)} THEN ${to === null ? 'NULL' : sqlTextLiteral(to)}`,
    )
    .join(' ');
  return `(CASE WHEN r.local_only = 0 THEN CASE ${expr} ${cases} ELSE ${expr} END ELSE ${expr} END)`;
}

/** Whether two lists of option names hold the same names (in any order). Pure. */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((name) => set.has(name));
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

/**
 * `options` are the mirror's (the names its server copies hold); `relabel` says what queued
 * option changes make of them (MetadataRepository.optionsAsQueued), none by default.
 */
export function recordFilterSetup(
  fields: readonly SetupField[],
  statuses: readonly SetupStatus[],
  options: readonly SetupOption[],
  relabel: OptionRelabel = new Map(),
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
    storedBindings: dictionary(),
    folded: dictionary({ name: 'r.name_fold' }),
    foldedSortKeys: dictionary({ name: 'r.name_sort' }),
    optionNames: dictionary(),
    shownOptionNames: dictionary(),
    clearedNames: dictionary(),
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
    const queued = relabel.get(field.apiName);
    if (type === 'pick_list' && queued !== undefined && queued.size > 0) {
      setup.storedBindings[field.apiName] = {
        expr: queuedPickListExpr(customExpr(field.apiName, type), queued),
      };
    }
    if (type === 'multi_select') {
      const names = new Map<string, string>();
      const shown = new Map<string, string>();
      for (const option of options) {
        if (option.fieldApiName !== field.apiName || option.value === null) continue;
        const next = queued?.has(option.value) ? queued.get(option.value)! : option.value;
        // A removed option's records show it cleared: a filter naming it finds none of them.
        if (next === null) continue;
        names.set(option.valueId, option.value);
        shown.set(option.valueId, next);
      }
      setup.optionNames[field.apiName] = names;
      setup.shownOptionNames[field.apiName] = shown;
      const cleared = [...(queued ?? [])].filter(([, to]) => to === null).map(([from]) => from);
      if (cleared.length > 0) setup.clearedNames[field.apiName] = cleared;
    }
    if (type === 'multi_user') setup.userLists[field.apiName] = true;
  }
  for (const name of Object.keys(setup.bindings)) {
    setup.storedBindings[name] ??= setup.bindings[name]!;
  }
  return setup;
}
