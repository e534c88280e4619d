import { isAppUrl } from './appOrigin';

/**
 * Permissions our own renderer may use. Everything else (camera, microphone, geolocation,
 * notifications, HID, serial, ...) is denied: PortalDesk never needs it, so no page may ask.
 */
const GRANTED_TO_APP = new Set(['clipboard-sanitized-write']);

export function decidePermission(
  permission: string,
  requestingUrl: string,
  devServerUrl?: string,
): boolean {
  return GRANTED_TO_APP.has(permission) && isAppUrl(requestingUrl, devServerUrl);
}
