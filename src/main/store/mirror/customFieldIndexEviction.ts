/**
 * Which of a module's custom-field indexes make room for one more. Pure.
 *
 * Every index slows each upsert of its module's records (SQLite computes its expression and
 * inserts its entry), so a module keeps at most a few: the ones its lists used last.
 */

/** Custom-field indexes one module keeps; the least recently used goes to make room. */
export const MAX_CUSTOM_FIELD_INDEXES_PER_MODULE = 4;
/**
 * An index used this recently is never dropped for another: a list that filters on more fields
 * than the cap would otherwise drop and rebuild indexes (seconds each) on every change.
 */
export const CUSTOM_FIELD_INDEX_GRACE_MS = 10 * 60_000;

export interface IndexUse {
  name: string;
  /** Epoch ms of its last use by a list; 0 when not used since the engine started. */
  lastUsed: number;
}

/**
 * The names to drop before one more index is built among `existing` (the module's indexes):
 * none while there is room, the least recently used otherwise (ties by name), or null when those
 * were all used within the grace period, in which case the new one is not built.
 */
export function customFieldIndexEviction(
  existing: readonly IndexUse[],
  now: number,
  max = MAX_CUSTOM_FIELD_INDEXES_PER_MODULE,
  graceMs = CUSTOM_FIELD_INDEX_GRACE_MS,
): string[] | null {
  const surplus = existing.length + 1 - max;
  if (surplus <= 0) return [];
  const oldest = [...existing]
    .sort((a, b) => a.lastUsed - b.lastUsed || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, surplus);
  if (oldest.some((index) => index.lastUsed > 0 && now - index.lastUsed < graceMs)) return null;
  return oldest.map((index) => index.name);
}
