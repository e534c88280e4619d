/**
 * A compiled filter as SQL over mirrored records. Most leaves go through packages/portal-api/src/filter's toSql
 * unchanged; three kinds are written here because of how the mirror stores values:
 * - text conditions on a field with a folded column (the name) compare that column, with the same
 *   instr/substr tests toSql writes, instead of calling the fold function on every row; `equals`
 *   also compares the name's sort key, so that it seeks the one index over names;
 * - multi-select conditions name option ids, while the mirror stores option names (the API's
 *   shape): the ids become names before toSql sees them (the mirror's names over server copies,
 *   the names queued option changes give them over records made here and edited rows);
 * - a pick list whose options a queued change renames or removes is read over server copies as
 *   that change leaves it (storedBindings, queuedPickListExpr), as the lists show it;
 * - multi-user conditions name zpuids, while the mirror stores [{zpuid, name}]: the list is read
 *   with json_each and each item's zpuid compared.
 * and/or/not combine as toSql combines them (NOT over COALESCE(..., 0), two-valued).
 *
 * The same filter is written three ways, with the same meaning:
 * - over the listed server copies (`records`, list_state 0), a multi-select's "includes" reads
 *   record_multi_values (migrations/0017_list_lookups.sql) instead of each record's JSON: `probe`
 *   asks it once per row (an index walk that stops after a window), `sql` reads the option's rows
 *   once per statement (a count or a sort, which read every match);
 * - over the rows with pending edits (`edited`, the edited_rows CTE), from their merged JSON.
 * It also names the custom-field expressions the conditions compare, the ones an expression index
 * can serve (customFieldIndexDefinition.ts), and the lookup that finds the filter's rows without
 * reading the module (listLookups.ts), when it has one. Pure.
 */
import {
  FOLD_SQL_FUNCTION,
  toSql,
  type CompiledFilter,
  type Predicate,
  type SqlBinding,
  type SqlFragment,
} from '@portaldesk/portal-api/filter';
import { naturalSortKeyOfFolded } from '@portaldesk/portal-api/domain/naturalOrder';
import { isCustomFieldExpression } from './customFieldIndexDefinition';
import { filterLookup, type FilterLookup } from './filterLookup';
import { optionNamesOf, sameNames, sqlText, type RecordFilterSetup } from './recordFilterSetup';

export interface RecordFilterSql extends SqlFragment {
  /**
   * The filter over the listed server copies (`records r`, list_state 0) for a statement that
   * stops early (an index walk for one window): a multi-select's option is looked up per row.
   * Takes `params`, like `sql`, which reads the option's rows once per statement.
   */
  probe: string;
  /** The filter over the rows with pending edits (the edited_rows CTE), from their JSON. */
  edited: SqlFragment;
  /**
   * The custom-field expressions the filter compares (as written in `sql`, over `r`), once each:
   * an index on one makes its conditions index ranges, or at least an index scan.
   */
  indexable: string[];
  /** How to find the filter's rows without reading the module's, if it can be (listLookups.ts). */
  lookup: FilterLookup | null;
}

/** How a FilterWriter writes: over the listed server copies (per row or per statement), or over edited rows. */
type Form = 'probe' | 'scan' | 'edited';

/** Value lists longer than this are bound as one JSON array (as toSql does). */
const MAX_INLINE_VALUES = 16;

class FilterWriter {
  readonly params: (string | number)[] = [];
  readonly indexable = new Set<string>();

  constructor(
    private readonly compiled: CompiledFilter,
    private readonly setup: RecordFilterSetup,
    private readonly moduleKey: number,
    private readonly form: Form,
  ) {}

  private param(value: string | number): string {
    this.params.push(value);
    return '?';
  }

  private inList(values: readonly string[]): string {
    if (values.length === 1) return `= ${this.param(values[0] as string)}`;
    if (values.length <= MAX_INLINE_VALUES) {
      return `IN (${values.map((value) => this.param(value)).join(', ')})`;
    }
    return `IN (SELECT value FROM json_each(${this.param(JSON.stringify(values))}))`;
  }

  /** Notes the expression a leaf compares when it is a custom field's. */
  private compares(expression: string): void {
    if (isCustomFieldExpression(expression)) this.indexable.add(expression);
  }

  /**
   * Each field's value as this form reads it: the edited rows' values are shown as queued option
   * changes leave them already, the server copies' are read so (storedBindings).
   */
  private get bindings(): Record<string, SqlBinding> {
    return this.form === 'edited' ? this.setup.bindings : this.setup.storedBindings;
  }

  /** The expression toSql compares for a leaf: the folded value for text, else the value. */
  private noteShared(node: Predicate): void {
    if (node.op === 'and' || node.op === 'or' || node.op === 'not' || node.op === 'const') return;
    if (node.op === 'closed') return;
    const expr = this.bindings[node.field]?.expr;
    // A value read as queued renames leave it is no index's: they are gone once delivered.
    if (expr === undefined || expr !== this.setup.bindings[node.field]?.expr) return;
    this.compares(node.op === 'text' ? `${FOLD_SQL_FUNCTION}(${expr})` : expr);
  }

  /** One leaf through toSql, its parameters appended in order. */
  private shared(node: Predicate): string {
    this.noteShared(node);
    const fragment = toSql(
      { root: node, fields: this.compiled.fields, closedFields: this.compiled.closedFields },
      this.bindings,
    );
    this.params.push(...fragment.params);
    return fragment.sql;
  }

  /** The zpuid of a multi-user item: {zpuid: "..."} as the API shows it, or a bare id string. */
  private static zpuidOf(item: string): string {
    return `(CASE ${item}.type WHEN 'object' THEN json_extract(${item}.value, '$.zpuid') WHEN 'text' THEN ${item}.value END)`;
  }

  private userList(field: string, values?: readonly string[]): string {
    const zpuid = FilterWriter.zpuidOf('pd_u');
    // `->` gives the value as JSON text whatever its type, so json_each reads what json_each's
    // path argument would, from an expression an index can hold.
    const list = `r.custom -> '$.${field}'`;
    this.compares(list);
    const source = `json_each(${list}) AS pd_u`;
    if (values === undefined) {
      return `(NOT EXISTS (SELECT 1 FROM ${source} WHERE typeof(${zpuid}) = 'text'))`;
    }
    if (values.length === 0) return '0';
    return `(EXISTS (SELECT 1 FROM ${source} WHERE ${zpuid} ${this.inList(values)}))`;
  }

  /**
   * A multi-select holding any of `names`, over a listed server copy: its rows in
   * record_multi_values. The module key is a literal, as in every list statement
   * (customFieldIndexScope), and the field's api name one too (SAFE_API_NAME, recordFilterSetup).
   */
  private multiValues(field: string, names: readonly string[]): string {
    const range = `v.module_key = ${this.moduleKey} AND v.field = ${sqlText(field)} AND v.value ${this.inList(names)}`;
    return this.form === 'probe'
      ? `EXISTS (SELECT 1 FROM record_multi_values v WHERE ${range} AND v.row_key = r.row_key)`
      : `r.row_key IN (SELECT v.row_key FROM record_multi_values v WHERE ${range})`;
  }

  write(node: Predicate): string {
    switch (node.op) {
      case 'and':
      case 'or': {
        const items = node.items.map((item) => this.write(item));
        return items.length === 1
          ? (items[0] as string)
          : `(${items.join(node.op === 'and' ? ' AND ' : ' OR ')})`;
      }
      case 'not':
        return `(NOT COALESCE(${this.write(node.item)}, 0))`;
      case 'text': {
        const column = this.setup.folded[node.field];
        if (column === undefined) return this.shared(node);
        if (node.match === 'equals') {
          const keys = this.setup.foldedSortKeys[node.field];
          if (keys === undefined) return `(${column} ${this.inList(node.values)})`;
          // The key is a function of the folded text, so this is the same test; it lets SQLite
          // find the names in the sort key's index, the only one over names. (Parameters are
          // taken in the order the SQL names them: the keys first.)
          const keyTest = `${keys} ${this.inList([...new Set(node.values.map(naturalSortKeyOfFolded))])}`;
          return `(${keyTest} AND ${column} ${this.inList(node.values)})`;
        }
        const match = node.match;
        const tests = node.values.map((value) => {
          const needle = this.param(value);
          if (match === 'contains') return `instr(${column}, ${needle}) > 0`;
          if (match === 'starts_with') return `instr(${column}, ${needle}) = 1`;
          return `substr(${column}, -length(${needle})) = ${this.param(value)}`;
        });
        return `(${tests.join(' OR ')})`;
      }
      case 'has_any': {
        if (this.setup.userLists[node.field]) return this.userList(node.field, node.values);
        const names = (
          this.form === 'edited' ? this.setup.shownOptionNames : this.setup.optionNames
        )[node.field];
        if (names === undefined) return this.shared(node);
        // An id that is no option of the field names nothing, so it matches nothing.
        const values = optionNamesOf(node.values, names);
        if (this.form === 'edited') return this.shared({ ...node, values });
        const holds = (names: string[]) =>
          names.length === 0 ? '0' : `(${this.multiValues(node.field, names)})`;
        const shown = optionNamesOf(node.values, this.setup.shownOptionNames[node.field]!);
        if (sameNames(values, shown)) return holds(values);
        // Renamed in the queue: a server copy holds the mirror's name, a record made here the
        // queued one (its create followed the rename).
        return `((r.local_only = 0 AND ${holds(values)}) OR (r.local_only <> 0 AND ${holds(shown)}))`;
      }
      case 'empty': {
        if (node.list && this.setup.userLists[node.field]) return this.userList(node.field);
        const cleared = this.setup.clearedNames[node.field];
        if (!node.list || cleared === undefined || this.form === 'edited') return this.shared(node);
        // A server copy holding only options a queued removal clears shows none: empty, as
        // toSql's own test (no text item) with those items not counted. A record made here
        // holds the queued names, where a cleared name may be another option's new one.
        const expr = this.bindings[node.field]!.expr;
        this.compares(expr);
        const list = `CASE WHEN json_valid(${expr}) THEN CASE WHEN json_type(${expr}) = 'array' THEN ${expr} END END`;
        return `(NOT EXISTS (SELECT 1 FROM json_each(${list}) AS pd_j WHERE pd_j.type = 'text' AND (r.local_only <> 0 OR NOT (pd_j.value ${this.inList(cleared)}))))`;
      }
      default:
        return this.shared(node);
    }
  }
}

/** The filter over module `moduleKey`'s records (its key is written into the SQL as a literal). */
export function recordFilterSql(
  compiled: CompiledFilter,
  setup: RecordFilterSetup,
  moduleKey: number,
): RecordFilterSql {
  if (!Number.isSafeInteger(moduleKey) || moduleKey < 0) {
    throw new Error(`Not a module key: ${moduleKey}`);
  }
  const written = (form: Form) => {
    const writer = new FilterWriter(compiled, setup, moduleKey, form);
    return { sql: writer.write(compiled.root), writer };
  };
  const scan = written('scan');
  const probe = written('probe');
  const edited = written('edited');
  return {
    sql: scan.sql,
    params: scan.writer.params,
    probe: probe.sql,
    edited: { sql: edited.sql, params: edited.writer.params },
    // The expressions the stored rows' SQL compares: the edited rows are few, and read from JSON.
    indexable: [...scan.writer.indexable],
    lookup: filterLookup(compiled.root, setup),
  };
}
