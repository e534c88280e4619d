/**
 * What the lists should show of a record's queued updates: per field the newest queued value and
 * the base of the first queued change of it (the server's value the user started from), the
 * rows of `record_edits`. Creates are not here: a record created offline is its own local row.
 * Pure.
 */
import type { OverlayValue } from '../store/mirror/localEditsRepository';
import type { OutboxOp } from './outboxTypes';

export type { OverlayValue };

export function overlayOf(ops: readonly OutboxOp[]): Map<string, OverlayValue> {
  const overlay = new Map<string, OverlayValue>();
  const sorted = [...ops].sort((a, b) => a.seq - b.seq);
  for (const op of sorted) {
    if (op.kind !== 'update') continue;
    for (const [field, entry] of Object.entries(op.fields)) {
      const first = overlay.get(field);
      overlay.set(field, {
        value: entry.value,
        base: first ? first.base : entry.base,
        editedAt: op.updatedAt,
      });
    }
  }
  return overlay;
}
