/**
 * A compiled filter as SQL over mirrored records. Most leaves go through src/shared/filter's toSql
 * unchanged; three kinds are written here because of how the mirror stores values:
 * - text conditions on a field with a folded column (the name) compare that column, with the same
 *   instr/substr tests toSql writes, instead of calling the fold function on every row;
 * - multi-select conditions name option ids, while the mirror stores option names (the API's
 *   shape): the ids become names before toSql sees them;
 * - multi-user conditions name zpuids, while the mirror stores [{zpuid, name}]: the list is read
 *   with json_each and each item's zpuid compared.
 * and/or/not combine as toSql combines them (NOT over COALESCE(..., 0), two-valued). Pure.
 */
import {
  toSql,
  type CompiledFilter,
  type Predicate,
  type SqlFragment,
} from '../../../shared/filter';
import type { RecordFilterSetup } from './recordFilterSetup';

/** Value lists longer than this are bound as one JSON array (as toSql does). */
const MAX_INLINE_VALUES = 16;

class FilterWriter {
  readonly params: (string | number)[] = [];

  constructor(
    private readonly compiled: CompiledFilter,
    private readonly setup: RecordFilterSetup,
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

  /** One leaf through toSql, its parameters appended in order. */
  private shared(node: Predicate): string {
    const fragment = toSql(
      { root: node, fields: this.compiled.fields, closedFields: this.compiled.closedFields },
      this.setup.bindings,
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
    const source = `json_each(r.custom, '$.${field}') AS pd_u`;
    if (values === undefined) {
      return `(NOT EXISTS (SELECT 1 FROM ${source} WHERE typeof(${zpuid}) = 'text'))`;
    }
    if (values.length === 0) return '0';
    return `(EXISTS (SELECT 1 FROM ${source} WHERE ${zpuid} ${this.inList(values)}))`;
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
        if (node.match === 'equals') return `(${column} ${this.inList(node.values)})`;
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
        const names = this.setup.optionNames[node.field];
        if (names === undefined) return this.shared(node);
        // An id that is no option of the field names nothing, so it matches nothing.
        const values = [...new Set(node.values.flatMap((id) => names.get(id) ?? []))];
        return this.shared({ ...node, values });
      }
      case 'empty':
        if (node.list && this.setup.userLists[node.field]) return this.userList(node.field);
        return this.shared(node);
      default:
        return this.shared(node);
    }
  }
}

export function recordFilterSql(compiled: CompiledFilter, setup: RecordFilterSetup): SqlFragment {
  const writer = new FilterWriter(compiled, setup);
  const sql = writer.write(compiled.root);
  return { sql, params: writer.params };
}
