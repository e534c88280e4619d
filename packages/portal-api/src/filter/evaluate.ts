/**
 * The in-memory evaluator: the same compiled predicate as toSql, with the same meaning, over
 * values read one field at a time. `record(fieldKey)` returns the field's stored value (see
 * predicate.ts for the representation); `closed(fieldKey)` says whether a status field's status
 * is of a closed type, and is only needed for status presets.
 */
import { foldText } from './fold';
import type { Bound, CompiledFilter, Predicate } from './predicate';

/**
 * A stored value as SQL would see it: undefined and NaN are NULL (SQLite stores NaN as NULL) and
 * booleans are 1/0 (SQLite has no boolean; json_extract reads JSON true as 1).
 */
function stored(value: unknown): unknown {
  if (value === undefined || (typeof value === 'number' && Number.isNaN(value))) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** The option ids of a multi pick list value: string items of a JSON array (text or array). */
function optionIds(value: unknown): string[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

function inBounds<T extends string | number>(value: T, min?: Bound<T>, max?: Bound<T>): boolean {
  if (min && !(min.inclusive ? value >= min.value : value > min.value)) return false;
  if (max && !(max.inclusive ? value <= max.value : value < max.value)) return false;
  return true;
}

export function evaluate(
  compiled: CompiledFilter,
  record: (fieldKey: string) => unknown,
  closed?: (fieldKey: string) => boolean,
): boolean {
  const cache = new Map<string, unknown>();
  const read = (field: string): unknown => {
    if (!cache.has(field)) cache.set(field, stored(record(field)));
    return cache.get(field);
  };

  const test = (node: Predicate): boolean => {
    switch (node.op) {
      case 'and':
        return node.items.every(test);
      case 'or':
        return node.items.some(test);
      case 'not':
        return !test(node.item);
      case 'const':
        return node.value;
      case 'empty': {
        const value = read(node.field);
        return node.list ? optionIds(value).length === 0 : value === null || value === '';
      }
      case 'text': {
        const value = read(node.field);
        if (typeof value !== 'string') return false;
        const folded = foldText(value);
        return node.values.some((needle) => {
          switch (node.match) {
            case 'equals':
              return folded === needle;
            case 'contains':
              return folded.includes(needle);
            case 'starts_with':
              return folded.startsWith(needle);
            case 'ends_with':
              return folded.endsWith(needle);
          }
        });
      }
      case 'equals': {
        const value = read(node.field);
        return node.type === 'text'
          ? typeof value === 'string' && node.values.includes(value)
          : typeof value === 'number' && node.values.includes(value);
      }
      case 'range': {
        const value = read(node.field);
        return node.type === 'text'
          ? typeof value === 'string' && value !== '' && inBounds(value, node.min, node.max)
          : typeof value === 'number' && inBounds(value, node.min, node.max);
      }
      case 'closed':
        if (!closed) {
          throw new Error(`evaluate needs closed(fieldKey) for the status preset on ${node.field}`);
        }
        return closed(node.field) === true;
      case 'has_any': {
        const ids = optionIds(read(node.field));
        return ids.some((id) => node.values.includes(id));
      }
    }
  };
  return test(compiled.root);
}
