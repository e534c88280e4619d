import type { Filter } from '@portaldesk/portal-api/filter';

/**
 * Ours: the zone whose day of an instant is the earliest anywhere (UTC-12; IANA's `Etc/GMT+12` is
 * twelve hours behind). A day named there starts no later than the instant in any zone the
 * service may read it in (offsets run from -12 to +14), so a filter on it reads every change
 * from the instant on, and at most 50 hours before it (UTC+14 against UTC-12).
 */
export const EARLIEST_DAY_ZONE = 'Etc/GMT+12';

/**
 * The `filter` for an incremental pull: records whose `last_updated_time` is on or after the
 * cursor's day. The filter language compares date-times by whole days in the portal's time zone
 * ("specific date YYYY-MM-DD"), so the day is the cursor's local day there; the pull re-reads part
 * of that day, which is harmless because records are upserted by id. When the service did not
 * report the portal's zone (null), or reported one this runtime does not know, the service reads
 * the day in a zone PortalDesk cannot tell, so the day is the earliest one anywhere.
 */
export function changedSinceFilter(cursorIso: string, portalTimeZone: string | null): Filter {
  const zone = portalTimeZone !== null && isKnownZone(portalTimeZone) ? portalTimeZone : null;
  return {
    criteria: [
      {
        field_name: 'last_updated_time',
        criteria_condition: 'greater_than_or_equal',
        value: [localDay(cursorIso, zone ?? EARLIEST_DAY_ZONE)],
      },
    ],
    pattern: '1',
  };
}

function isKnownZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone });
    return true;
  } catch {
    return false;
  }
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
