/**
 * Which lookup, if any, finds a filter's rows among a module's listed server copies without
 * reading each of them (listLookups.ts runs it; migrations/0017_list_lookups.sql keeps it):
 * - `values`: a multi-select holding any of these option names (record_multi_values);
 * - `names`: a name containing any of these folded needles (record_name_trigrams). Only needles
 *   of three or more characters: a shorter one has no trigram, and FTS5 finds nothing for it.
 * `whole` says how the lookup relates to the filter: the filter is exactly its condition (`is`)
 * or that condition negated (`not`), so the lookup's count is the filter's (or the listed rows
 * minus it); or (`null`) the condition is one item of the filter's top-level AND, so every match
 * is among the lookup's rows, and a few of them can be read instead of the module. Pure.
 */
import type { Predicate } from '@portaldesk/portal-api/filter';
import { optionNamesOf, sameNames, type RecordFilterSetup } from './recordFilterSetup';

export type LookupFit = 'is' | 'not' | null;

export type FilterLookup =
  | { kind: 'values'; field: string; values: string[]; whole: LookupFit }
  | { kind: 'names'; needles: string[]; whole: LookupFit };

/** The fewest characters (code points) a needle needs for the trigram index: one trigram. */
export const TRIGRAM_NEEDLE_CHARS = 3;

/** The folded name column the trigram index holds (migrations/0017_list_lookups.sql). */
const NAME_FOLD = 'r.name_fold';

/** A needle the trigram index answers exactly: three characters or more, and no NUL (FTS5 reads the query as C text). */
export function trigramNeedle(needle: string): boolean {
  return !needle.includes('\u0000') && Array.from(needle).length >= TRIGRAM_NEEDLE_CHARS;
}

function leafLookup(
  node: Predicate,
  setup: RecordFilterSetup,
  whole: LookupFit,
): FilterLookup | null {
  if (node.op === 'has_any') {
    const names = setup.optionNames[node.field];
    if (names === undefined || setup.userLists[node.field]) return null;
    const values = optionNamesOf(node.values, names);
    // Renamed in the queue: records made here hold the queued names, the server copies the
    // mirror's; the filter's SQL reads both (recordFilterSql), a lookup of one name would not.
    const shown = optionNamesOf(node.values, setup.shownOptionNames[node.field] ?? names);
    if (!sameNames(values, shown)) return null;
    // No option named: the SQL is `0`, nothing to look up.
    return values.length === 0 ? null : { kind: 'values', field: node.field, values, whole };
  }
  if (
    node.op === 'text' &&
    node.match === 'contains' &&
    setup.folded[node.field] === NAME_FOLD &&
    node.values.length > 0 &&
    node.values.every(trigramNeedle)
  ) {
    return { kind: 'names', needles: [...node.values], whole };
  }
  return null;
}

export function filterLookup(root: Predicate, setup: RecordFilterSetup): FilterLookup | null {
  if (root.op === 'not') return leafLookup(root.item, setup, 'not');
  if (root.op === 'and') {
    for (const item of root.items) {
      const lookup = leafLookup(item, setup, null);
      if (lookup) return lookup;
    }
    return null;
  }
  return leafLookup(root, setup, 'is');
}
