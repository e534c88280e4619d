/**
 * The compiled form of a filter: a predicate tree with nothing left to interpret. Presets are
 * concrete ranges and id sets, text needles are already folded, dates are the exact strings to
 * compare with. toSql and evaluate both walk this tree and each leaf has one meaning, so the two
 * back ends cannot disagree on what a condition means. It is plain JSON (it may cross IPC).
 *
 * Stored representation each leaf assumes (what the SQL expression yields and what evaluate's
 * `record` returns; spec, "Common conventions"):
 *   text, pick list  string                 user, status   id string (ZPUID, status id)
 *   number           number                 boolean        0 or 1 (JS true/false also read as 1/0)
 *   date             'YYYY-MM-DD'           datetime       'YYYY-MM-DDTHH:mm:ss.SSSZ' (UTC)
 *   multi pick list  JSON array text of option id strings (evaluate also takes an array)
 * A value of another type matches no comparison (so it matches is_not and the other negations):
 * both back ends check the type before comparing, whatever the column's affinity.
 *
 * NULL semantics: "empty" is NULL (or undefined), '' and, for multi pick lists, an array with no
 * option ids ('[]'). Every leaf is two-valued: an empty value simply does not match a comparison.
 * Negative conditions (is_not, not_contains, not_between, is_not_empty) are the exact complement
 * of their positive twin, so `is_not "x"` matches records whose value is empty: the records a
 * condition and its negation select always partition the whole set.
 */
import type { FieldKind } from './types';

export interface Bound<T> {
  value: T;
  inclusive: boolean;
}

export type TextMatch = 'equals' | 'contains' | 'starts_with' | 'ends_with';

export type Predicate =
  | { op: 'and'; items: Predicate[] }
  | { op: 'or'; items: Predicate[] }
  | { op: 'not'; item: Predicate }
  | { op: 'const'; value: boolean }
  /** Empty value; `list` for multi pick lists (no option ids in the array). */
  | { op: 'empty'; field: string; list: boolean }
  /** Folded text matches any of the (already folded) values. */
  | { op: 'text'; field: string; match: TextMatch; values: string[] }
  /** Exact equality with any of the values. */
  | { op: 'equals'; field: string; type: 'text'; values: string[] }
  | { op: 'equals'; field: string; type: 'number'; values: number[] }
  /** Between bounds; a missing bound is open. Text compares by code unit (bounds are ASCII). */
  | { op: 'range'; field: string; type: 'text'; min?: Bound<string>; max?: Bound<string> }
  | { op: 'range'; field: string; type: 'number'; min?: Bound<number>; max?: Bound<number> }
  /** The status is of a closed type (the binding's closedExpr, evaluate's `closed`). */
  | { op: 'closed'; field: string }
  /** A multi pick list holds any of these option ids. */
  | { op: 'has_any'; field: string; values: string[] };

export interface CompiledFilter {
  root: Predicate;
  /** Every field key the predicate reads, with its kind: what an executor must bind. */
  fields: Record<string, FieldKind>;
  /** Field keys whose closed-type flag is read (status presets): these need closedExpr. */
  closedFields: string[];
}
