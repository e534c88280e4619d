import type { Portal } from '@portaldesk/portal-api/domain/portal';
import type { PortalDetails } from '@portaldesk/portal-api/domain/portalDetails';
import type { MirrorPortal } from '../store/mirror/mirrorTypes';

/**
 * Ours: a portal whose list item and details both leave out `timezone` is read in UTC (the
 * mirror needs a zone for "today" in filters; the spec gives no default).
 */
export const FALLBACK_TIME_ZONE = 'UTC';

/** Where a portal was reached: the signed-in account and the data center of its client. */
export interface PortalPlace {
  accountId: string;
  dc: string;
}

/**
 * A portal for the mirror, from its list item and (when read) its details. The details win where
 * both say something: they are the single-portal read. Everything the API returned is kept in
 * `details` under `list` and `portal_details`.
 */
export function mapPortal(
  item: Portal,
  details: PortalDetails | null,
  place: PortalPlace,
): MirrorPortal {
  return {
    id: item.id,
    accountId: place.accountId,
    dc: place.dc,
    name: details?.name ?? item.portal_name,
    orgName: details?.org_name ?? item.org_name,
    timeZone: details?.timezone ?? item.timezone ?? FALLBACK_TIME_ZONE,
    weekStartDay: details?.business_details?.week_start_day ?? null,
    isDefault: item.is_default_portal,
    details: { list: item, portal_details: details },
  };
}

/**
 * The zone the service reported for a stored portal (its details', else its list item's), or
 * null when both left `timezone` out: the stored `timeZone` is then FALLBACK_TIME_ZONE, which the
 * service need not compare days in (incrementalFilter.ts).
 */
export function reportedTimeZone(portal: MirrorPortal): string | null {
  const zoneOf = (part: unknown): string | null => {
    if (typeof part !== 'object' || part === null) return null;
    const zone = (part as { timezone?: unknown }).timezone;
    return typeof zone === 'string' && zone !== '' ? zone : null;
  };
  return zoneOf(portal.details.portal_details) ?? zoneOf(portal.details.list);
}
