/**
 * Option names in queued values follow an option rename (pure). A pick list holds one name, a
 * multi-select a list of them; a value and its base alike, since once the rename is delivered the
 * service holds the new name wherever it held the old. Every pair of the mapping applies at once,
 * so a swap stays a swap.
 */
import type { FieldEntry } from './outboxTypes';

/** One rename (or its discard) of a field's options, as the module's queued values follow it. */
export interface OptionsRelabelled {
  portalId: string;
  moduleId: string;
  /** The field's API name: the key its values have in queued changes. */
  field: string;
  /** Old name → new name. */
  relabel: ReadonlyMap<string, string>;
}

export function relabelValue(value: unknown, relabel: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return relabel.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => relabelValue(item, relabel));
  return value;
}

/** A queued field entry with its value and base relabelled. */
export function relabelEntry(entry: FieldEntry, relabel: ReadonlyMap<string, string>): FieldEntry {
  return { value: relabelValue(entry.value, relabel), base: relabelValue(entry.base, relabel) };
}
