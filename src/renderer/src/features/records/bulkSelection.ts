/**
 * What the bulk edit dialog's actions (preview, move to the recycle bin) act on, as the engine is
 * asked, and whether two such selections name the same records. Pure.
 */
import type { BulkSelection } from '../../../../shared/ipc/areas/bulkEdit';
import type { Picked } from './rowSelection';

/**
 * Every record the filter matches when the user asks for it, every one but those left out when
 * the whole list is selected (Ctrl+A, then Ctrl+clicks), else the records picked, by id.
 */
export function bulkSelectionFrom(
  wholeAsked: boolean,
  filter: string | undefined,
  chosen: Picked,
): BulkSelection {
  const matching = { kind: 'filter', ...(filter === undefined ? {} : { filter }) } as const;
  if (wholeAsked) return matching;
  if (chosen.kind === 'rows') return { kind: 'ids', ids: chosen.ids };
  return chosen.except.length === 0 ? matching : { ...matching, except: chosen.except };
}

/** The same, once the gestures being read are ids (recordsStore's `picked`). */
export async function bulkSelectionOf(
  wholeAsked: boolean,
  filter: string | undefined,
  picked: () => Promise<Picked>,
): Promise<BulkSelection> {
  return bulkSelectionFrom(
    wholeAsked,
    filter,
    wholeAsked ? { kind: 'rows', ids: [] } : await picked(),
  );
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const held = new Set(a);
  return b.every((id) => held.has(id));
}

/**
 * Whether `a` and `b` name the same records: the same ids in any order (the order is Copy's, not
 * the records'), or the same filter less the same records.
 */
export function sameBulkSelection(a: BulkSelection, b: BulkSelection): boolean {
  if (a.kind === 'ids') return b.kind === 'ids' && sameIds(a.ids, b.ids);
  return b.kind === 'filter' && a.filter === b.filter && sameIds(a.except ?? [], b.except ?? []);
}
