import type { Filter } from '@portaldesk/portal-api/filter';

/**
 * The `filter` for an incremental pull: records whose `last_updated_time` is on or after the
 * cursor's day. The filter language compares date-times by whole days in the portal's time zone
 * ("specific date YYYY-MM-DD"), so the day is the cursor's local day there; the pull re-reads part
 * of that day, which is harmless because records are upserted by id.
 */
export function changedSinceFilter(cursorIso: string, portalTimeZone: string): Filter {
  return {
    criteria: [
      {
        field_name: 'last_updated_time',
        criteria_condition: 'greater_than_or_equal',
        value: [localDay(cursorIso, portalTimeZone)],
      },
    ],
    pattern: '1',
  };
}

/** `2026-03-01T02:30:00Z` in Asia/Kolkata is 2026-03-01; in America/New_York it is 2026-02-28. */
export function localDay(instantIso: string, timeZone: string): string {
  const instant = new Date(instantIso);
  if (Number.isNaN(instant.getTime())) throw new Error(`Not an ISO instant: "${instantIso}".`);
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}
