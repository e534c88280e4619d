/**
 * A compiled filter as an SQLite boolean expression (for a WHERE clause), with every value a bound
 * `?` parameter, never spliced into the text. The expressions the executor gives in `bindings`
 * are trusted SQL; nothing from the filter ever reaches the SQL text.
 *
 * SQL facts the translation relies on (SQLite 3.45+, as bundled with better-sqlite3 12):
 * - Case-insensitive text calls FOLD_SQL_FUNCTION, which the executor registers (see fold.ts).
 * - Text matching uses instr/substr, not LIKE, so `%` and `_` in a value are literal characters.
 * - Each comparison first checks typeof(), so a value of another type never matches, whatever the
 *   column's affinity would convert (evaluate does the same check in JavaScript).
 * - `NOT` wraps its operand in COALESCE(..., 0): a leaf that is NULL for an empty value then counts
 *   as "no match" and its negation as "match", the two-valued logic evaluate uses.
 * - Long value lists bind one JSON array and read it with json_each, staying far below SQLite's
 *   limit on parameters per statement.
 */
import { isCanonicalInstant } from '../domain/instant';
import { FOLD_SQL_FUNCTION } from './fold';
import type { Bound, CompiledFilter, Predicate } from './predicate';

export interface SqlBinding {
  /** SQL expression for the field's stored value, e.g. `r.name` or `json_extract(r.custom, '$.cf_budget')`. */
  expr: string;
  /** Status fields read by a status preset: an SQL expression that is 1 when the status is of a closed type. */
  closedExpr?: string;
  /**
   * The field holds instants written `YYYY-MM-DDTHH:mm:ss.SSSZ` (a date-time the mirror keeps,
   * packages/portal-api/src/domain/instant.ts) and the store indexes them as numbers,
   * `instantSql(expr)`: a range whose bounds are all written that way compares those numbers, so
   * SQLite can walk that index (the text is not in it).
   */
  indexedAsInstant?: boolean;
}

/**
 * A stored instant as a number (seconds, milliseconds as the fraction), as an expression index
 * holds it. For instants written `YYYY-MM-DDTHH:mm:ss.SSSZ` (valid dates: the reader checks)
 * it orders exactly as their text; it is NULL for text that is not a date SQLite reads.
 */
export function instantSql(expr: string): string {
  return `unixepoch(${expr}, 'subsec')`;
}

export interface SqlFragment {
  /** A boolean expression; its `?` placeholders are `params` in order. */
  sql: string;
  params: (string | number)[];
}

/** Text that JSON writes as it is between quotes: printable ASCII but `"` and `\`. */
const UNESCAPED_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Value lists longer than this are bound as one JSON array. */
const MAX_INLINE_VALUES = 16;

/** The expression if it is a JSON array, else NULL (json_each(NULL) yields no rows). */
function jsonArrayOrNull(x: string): string {
  // Nested CASE, not AND: json_type() raises an error on text that is not JSON.
  return `CASE WHEN json_valid(${x}) THEN CASE WHEN json_type(${x}) = 'array' THEN ${x} END END`;
}

/** A text range whose bounds are instants as the mirror writes them (compared as numbers). */
function instantBounds(node: Extract<Predicate, { op: 'range' }>): boolean {
  return [node.min, node.max].every(
    (bound) =>
      bound === undefined || (typeof bound.value === 'string' && isCanonicalInstant(bound.value)),
  );
}

class SqlWriter {
  readonly params: (string | number)[] = [];

  constructor(private readonly bindings: Record<string, SqlBinding>) {}

  private binding(field: string): SqlBinding {
    return this.bindings[field] as SqlBinding;
  }

  private expr(field: string): string {
    return `(${this.binding(field).expr})`;
  }

  private param(value: string | number): string {
    this.params.push(value);
    return '?';
  }

  /** `= ?`, `IN (?, ?)` or `IN (SELECT value FROM json_each(?))`. */
  private inList(values: readonly (string | number)[]): string {
    if (values.length === 1) return `= ${this.param(values[0] as string | number)}`;
    if (values.length <= MAX_INLINE_VALUES) {
      return `IN (${values.map((value) => this.param(value)).join(', ')})`;
    }
    return `IN (SELECT value FROM json_each(${this.param(JSON.stringify(values))}))`;
  }

  /**
   * For `has_any`: a necessary condition SQLite checks on the array's JSON text (or on an index
   * of that text) without parsing it, each value in quotes as it appears there; parsing each
   * record's list took 0.6 s at a million records, the text test a tenth of that. Exact only for
   * values no JSON writer escapes (printable ASCII but quotes and backslashes): the stored JSON is
   * written by JSON.stringify and SQLite's json functions, which escape nothing else. Other
   * values, or long lists, get no prefilter.
   */
  private hasAnyPrefilter(x: string, values: readonly (string | number)[]): string {
    const plain = values.every((value) => typeof value === 'string' && UNESCAPED_JSON.test(value));
    if (!plain || values.length > MAX_INLINE_VALUES) return '';
    const tests = values.map((value) => `instr(${x}, ${this.param(`"${value}"`)}) > 0`);
    return `(${tests.join(' OR ')}) AND `;
  }

  private bounds(x: string, min?: Bound<string | number>, max?: Bound<string | number>): string[] {
    const parts: string[] = [];
    if (min) parts.push(`${x} ${min.inclusive ? '>=' : '>'} ${this.param(min.value)}`);
    if (max) parts.push(`${x} ${max.inclusive ? '<=' : '<'} ${this.param(max.value)}`);
    return parts;
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
      case 'const':
        return node.value ? '1' : '0';
      case 'empty': {
        const x = this.expr(node.field);
        return node.list
          ? `(NOT EXISTS (SELECT 1 FROM json_each(${jsonArrayOrNull(x)}) AS pd_j WHERE pd_j.type = 'text'))`
          : `(${x} IS NULL OR ${x} = '')`;
      }
      case 'text': {
        const folded = `${FOLD_SQL_FUNCTION}(${this.expr(node.field)})`;
        if (node.match === 'equals') return `(${folded} ${this.inList(node.values)})`;
        const match = node.match;
        const tests = node.values.map((value) => {
          const needle = this.param(value);
          if (match === 'contains') return `instr(${folded}, ${needle}) > 0`;
          if (match === 'starts_with') return `instr(${folded}, ${needle}) = 1`;
          // ends_with: the needle's length in characters from the right, then compare.
          return `substr(${folded}, -length(${needle})) = ${this.param(value)}`;
        });
        return `(${tests.join(' OR ')})`;
      }
      case 'equals': {
        const x = this.expr(node.field);
        if (node.values.length === 0) return '0';
        const type =
          node.type === 'text' ? `typeof(${x}) = 'text'` : `typeof(${x}) IN ('integer', 'real')`;
        return `(${type} AND ${x} ${this.inList(node.values)})`;
      }
      case 'range': {
        const binding = this.binding(node.field);
        if (node.type === 'text' && binding.indexedAsInstant === true && instantBounds(node)) {
          // A number only for text that is a date: a bound met also means typeof() is text and
          // the text is not empty, as below.
          const instant = instantSql(binding.expr);
          const bound = instantSql('?');
          const parts: string[] = [];
          if (node.min) {
            this.params.push(node.min.value);
            parts.push(`${instant} ${node.min.inclusive ? '>=' : '>'} ${bound}`);
          }
          if (node.max) {
            this.params.push(node.max.value);
            parts.push(`${instant} ${node.max.inclusive ? '<=' : '<'} ${bound}`);
          }
          return parts.length === 0 ? `(${instant} IS NOT NULL)` : `(${parts.join(' AND ')})`;
        }
        const x = this.expr(node.field);
        const parts =
          node.type === 'text'
            ? [`typeof(${x}) = 'text'`, `${x} <> ''`, ...this.bounds(x, node.min, node.max)]
            : [`typeof(${x}) IN ('integer', 'real')`, ...this.bounds(x, node.min, node.max)];
        return `(${parts.join(' AND ')})`;
      }
      case 'closed':
        return `((${this.binding(node.field).closedExpr}) = 1)`;
      case 'has_any': {
        const x = this.expr(node.field);
        if (node.values.length === 0) return '0';
        // The prefilter's parameters come first, as it does in the text.
        const prefilter = this.hasAnyPrefilter(x, node.values);
        const exists = `EXISTS (SELECT 1 FROM json_each(${jsonArrayOrNull(x)}) AS pd_j WHERE pd_j.type = 'text' AND pd_j.value ${this.inList(node.values)})`;
        return `(${prefilter}${exists})`;
      }
    }
  }
}

/**
 * The filter as SQL. `bindings` maps each field key of `compiled.fields` (`name`, or
 * `module.name` for a related module's field) to its SQL expression; status fields that a status
 * preset reads also need `closedExpr`. Throws when a binding is missing.
 */
export function toSql(compiled: CompiledFilter, bindings: Record<string, SqlBinding>): SqlFragment {
  const missing = Object.keys(compiled.fields).filter((key) => !Object.hasOwn(bindings, key));
  const noClosed = compiled.closedFields.filter(
    (key) => Object.hasOwn(bindings, key) && !bindings[key]?.closedExpr,
  );
  if (missing.length > 0 || noClosed.length > 0) {
    const problems = [
      ...(missing.length > 0 ? [`no SQL binding for ${missing.join(', ')}`] : []),
      ...(noClosed.length > 0 ? [`no closedExpr for status field ${noClosed.join(', ')}`] : []),
    ];
    throw new Error(`Cannot translate the filter to SQL: ${problems.join('; ')}`);
  }
  const writer = new SqlWriter(bindings);
  const sql = writer.write(compiled.root);
  return { sql, params: writer.params };
}
