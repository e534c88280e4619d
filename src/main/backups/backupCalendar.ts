/**
 * When a scheduled backup runs: daily or weekly at a local hour. A run that fell while the app
 * was closed (its time passed after the last run) is due at once at the next start; one missed
 * run or ten, it runs once.
 */
export interface CalendarSpec {
  frequency: 'off' | 'daily' | 'weekly';
  /** 0-23, local. */
  hour: number;
  /** 0 Sunday - 6 Saturday, weekly only. */
  weekday: number;
}

/** The first slot strictly after `after` (local time), or null when off. */
export function nextSlotAfter(spec: CalendarSpec, after: Date): Date | null {
  if (spec.frequency === 'off') return null;
  const slot = new Date(after.getFullYear(), after.getMonth(), after.getDate(), spec.hour, 0, 0, 0);
  // Daylight-saving days can move the wall clock; stepping by calendar days keeps the hour.
  while (slot.getTime() <= after.getTime() || !matchesDay(spec, slot)) {
    slot.setDate(slot.getDate() + 1);
    slot.setHours(spec.hour, 0, 0, 0);
  }
  return slot;
}

function matchesDay(spec: CalendarSpec, slot: Date): boolean {
  return spec.frequency === 'daily' || slot.getDay() === spec.weekday;
}

/**
 * The next run: the first slot after the last run or after the schedule was last set, whichever
 * is later. When that slot has already passed, the run is due now.
 */
export function nextRun(
  spec: CalendarSpec,
  lastRunAt: Date | null,
  setAt: Date,
  now: Date,
): { at: Date; missed: boolean } | null {
  // A schedule changed after its last run counts from the change: moving 02:00 to 03:00 at 14:00
  // means tomorrow at 03:00, not a run at once for the 03:00 already past today.
  const reference = lastRunAt !== null && lastRunAt.getTime() > setAt.getTime() ? lastRunAt : setAt;
  const slot = nextSlotAfter(spec, reference);
  if (!slot) return null;
  return slot.getTime() <= now.getTime() ? { at: now, missed: true } : { at: slot, missed: false };
}
