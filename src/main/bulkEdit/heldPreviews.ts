/**
 * The previews the engine keeps for their Queue (issue 20: the records previewed are the records
 * queued), and likewise the selections a bulk trash or restore asked about for its confirm. A
 * preview resolves its selection once (a filter may name up to BULK_RECORDS_MAX records, too many
 * to send back and forth over IPC) and is kept here under a random id: Queue (or the confirm)
 * names the id, and the engine acts only on the records held. Each is taken once, kept a short
 * while, and only the newest few are kept (memory: 50,000 ids each).
 */
import { randomBytes } from 'node:crypto';
import type { BulkEditArgs, BulkTrashAskArgs } from '../../shared/ipc/areas/bulkEdit';

/** Ours: how long a preview may be queued; its counts describe the moment it was made. */
export const PREVIEW_HELD_MS = 10 * 60_000;
/** Ours: previews kept at once (the dialog needs its latest one). */
export const PREVIEWS_HELD_MAX = 4;

export interface HeldPreview {
  args: BulkEditArgs;
  /** Every record the selection named, sorted: apply refuses when it names others now. */
  selected: string[];
  /** The records whose value changes, in the selection's order: the only ones apply writes. */
  changes: string[];
  unchanged: number;
  failed: number;
}

/** A bulk trash's (or restore's) question, kept for its confirm. */
export interface HeldTrash {
  args: BulkTrashAskArgs;
  /** The records asked about, in the selection's order: the only ones the confirm acts on. */
  ids: string[];
  /** The same, sorted: the confirm refuses when the selection names others now. */
  selected: string[];
}

export class HeldPreviews<T = HeldPreview> {
  private readonly held = new Map<string, T & { heldAt: number }>();

  constructor(private readonly now: () => number) {}

  /** Keeps a preview and answers its id; the oldest goes when more than PREVIEWS_HELD_MAX are kept. */
  hold(preview: T): string {
    const id = randomBytes(8).toString('hex');
    this.held.set(id, { ...preview, heldAt: this.now() });
    for (const old of this.held.keys()) {
      if (this.held.size <= PREVIEWS_HELD_MAX) break;
      this.held.delete(old);
    }
    return id;
  }

  /** The preview, removed (a preview queues once); undefined when unknown, taken or too old. */
  take(id: string): T | undefined {
    const preview = this.held.get(id);
    this.held.delete(id);
    if (!preview || this.now() - preview.heldAt > PREVIEW_HELD_MS) return undefined;
    return preview;
  }
}

/** Records in `now` and not in `then`, and the reverse (both sorted). */
export function selectionDifference(
  then: readonly string[],
  now: readonly string[],
): { joined: number; left: number } {
  let joined = 0;
  let left = 0;
  let i = 0;
  let j = 0;
  while (i < then.length || j < now.length) {
    const a = then[i];
    const b = now[j];
    if (a !== undefined && a === b) {
      i += 1;
      j += 1;
    } else if (b === undefined || (a !== undefined && a < b)) {
      left += 1;
      i += 1;
    } else {
      joined += 1;
      j += 1;
    }
  }
  return { joined, left };
}
